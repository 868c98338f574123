"""The rules as a web page, in every language we speak: how to play first, the reference last.

A family opening the page wants to know how the game goes, not what ``tie=replay`` means. So
the page opens with a short "how to play" in plain words, each step shown on a little table
of cards (:data:`HOW_TO_PLAY`), then the presets described in words, and only then the full
rules shipped with the package (:func:`mattis.frontend.rules_text.full_rules`), one collapsed
chapter each, with the rule numbers, and every option side by side.

The example cards are drawn in the browser by ``static/cards.js``, the same pictures as at the
table: the server writes each card as a placeholder that names it (``data-show-card="Kd"``,
the card's label as its text, its name for screen readers), and ``static/rules.js`` puts the
picture in. Without scripts the page still reads, with ``K♦`` in place of the picture.

The full rules' Markdown uses a small set of features (headings, paragraphs, lists, tables,
emphasis, code, links), and :func:`markdown_html` renders exactly those, escaping the rest.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from ..core.cards import SUIT_SYMBOLS, SUITS, parse_card, rank_of, suit_of
from ..core.rules import PRESET_NAMES, RULE_OPTIONS, Rules
from ..frontend.cards import RANK_LABELS, card_name
from ..frontend.rules_text import full_rules
from ..i18n import LANGS, Lang, language_name, option_description, option_name, option_value, t
from ..table.page import TABLE_PAGE

_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*((?:[^*]|\*[^*]+\*)+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(rf"\[([^\]]+)\]\(rules\.({'|'.join(LANGS)})\.md\)"), r'<a href="/rules?lang=\2">\1</a>'),
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),
]
_ITEM = re.compile(r"^(\s*)(?:[-*]|\d+\.)\s+(.*)$")
_TABLE_PAGE = re.compile(re.escape(TABLE_PAGE) + r"[A-Za-z0-9_-]{1,64}")
"""A table page's path: the only place besides ``/`` that the "back" link may lead to."""


# ---------------------------------------------------------------------------- how to play

Mark = Literal["", "win", "tie", "beats", "or", "picked"]
"""What happened to a play in an example: it took the trick, was tied, beat the play before
it, could have beaten it instead, or was picked up."""


@dataclass(frozen=True)
class Play:
    """One player's cards in an example and what became of them."""

    who: str
    cards: tuple[str, ...]
    mark: Mark = ""


@dataclass(frozen=True)
class Step:
    """One step of "how to play": its texts are ``web.rules.step.<key>`` (and ``…_title``),
    its example's caption ``web.rules.example.<key>`` (when it has one); ``rows`` are the moments shown, in
    order (a war has two), and ``trump`` the trump suit's letter when it matters."""

    key: str
    rows: tuple[tuple[Play, ...], ...] = ()
    trump: str = ""
    picked_by: str = ""
    """Who picks up the play marked ``picked``."""


HOW_TO_PLAY: tuple[Step, ...] = (
    Step("deal", ((Play("", ("9c", "Kh", "4s")), Play("", ("back",))),)),
    Step("trick", ((Play("Kari", ("9c",)), Play("Ola", ("Kd",), "win"), Play("Siri", ("5h",))),)),
    Step("war", ((Play("Kari", ("Ks",), "tie"), Play("Ola", ("8h",)), Play("Siri", ("Kc",), "tie")),
                 (Play("Kari", ("4d",)), Play("Siri", ("Jh",), "win")))),
    Step("beat", ((Play("Kari", ("7h",)), Play("Ola", ("Th",), "beats"), Play("", ("2s",), "or")),),
         trump="s"),
    Step("pickup", ((Play("Kari", ("4c",), "picked"), Play("Ola", ("8c", "9c"))),), picked_by="Siri"),
    Step("sequence", ((Play("Kari", ("6h", "7h", "8h")), Play("Ola", ("9h",), "beats")),)),
    Step("end"),
)
"""The steps, with examples taken from pagat's rules (the worked examples of the full rules)."""


def _card_html(code: str, lang: Lang) -> str:
    if code == "back":
        return '<span class="card-pic" data-show-card="back" aria-hidden="true"></span>'
    number = parse_card(code)
    label = RANK_LABELS[rank_of(number)] + SUIT_SYMBOLS[suit_of(number)]
    return (f'<span class="card-pic" data-show-card="{code}" role="img" '
            f'aria-label="{html.escape(card_name(code, lang))}">{label}</span>')


def _play_html(play: Play, step: Step, lang: Lang) -> str:
    cards = "".join(_card_html(code, lang) for code in play.cards)
    notes = {"beats": t("web.rules.beats", lang), "or": t("web.rules.or", lang),
             "picked": t("web.rules.picks_up", lang, who=step.picked_by)}
    who = html.escape(play.who)
    note = f'<span class="note">{html.escape(notes[play.mark])}</span>' if play.mark in notes else ""
    mark = f' data-mark="{play.mark}"' if play.mark else ""
    return (f'<li class="play"{mark}><span class="cards">{cards}</span>'
            f'<span class="who">{who}</span>{note}</li>')


def _example_html(step: Step, lang: Lang) -> str:
    if not step.rows:
        return ""
    rows = []
    for index, row in enumerate(step.rows):
        title = f'<p class="round">{html.escape(t("web.rules.war_round", lang))}</p>' if index else ""
        rows.append(f'{title}<ol class="plays">{"".join(_play_html(p, step, lang) for p in row)}</ol>')
    trump = ""
    if step.trump:
        symbol = SUIT_SYMBOLS[SUITS.index(step.trump)]
        trump = f'<p class="trump-note">{html.escape(t("web.rules.trump", lang, suit=symbol))}</p>'
    caption = f"<figcaption>{html.escape(t(f'web.rules.example.{step.key}', lang))}</figcaption>"
    trump_data = f' data-trump="{step.trump}"' if step.trump else ""
    return (f'<figure class="example" data-example="{step.key}"{trump_data}>'
            f'<div class="mini-felt">{trump}{"".join(rows)}</div>{caption}</figure>')


def how_to_play_html(lang: Lang) -> str:
    """The illustrated steps, numbered."""
    items = []
    for step in HOW_TO_PLAY:
        title = html.escape(t(f"web.rules.step.{step.key}_title", lang))
        text = html.escape(t(f"web.rules.step.{step.key}", lang))
        items.append(f'<li class="step" id="step-{step.key}"><h4>{title}</h4><p>{text}</p>'
                     f'{_example_html(step, lang)}</li>')
    return f'<ol class="steps">{"".join(items)}</ol>'


def variants_html(lang: Lang) -> str:
    """The presets in words: each one's title and how it differs, no code names."""
    items = "".join(
        f'<li><h4>{html.escape(t(f"web.ui.preset_title.{name}", lang))}</h4>'
        f'<p>{html.escape(t(f"web.rules.variant.{name}", lang))}</p></li>' for name in PRESET_NAMES)
    return f'<ul class="variants">{items}</ul><p>{html.escape(t("web.rules.house_rules", lang))}</p>'


# ---------------------------------------------------------------------------- the full rules


def inline(text: str) -> str:
    """Escape ``text`` and apply the inline Markdown the rules use."""
    result = html.escape(text, quote=False)
    for pattern, replacement in _INLINE:
        result = pattern.sub(replacement, result)
    return result


def markdown_html(text: str) -> str:
    """The rules' Markdown as HTML (see the module docstring for what is supported)."""
    out: list[str] = []
    blocks = re.split(r"\n\s*\n", text.strip())
    for block in blocks:
        lines = block.splitlines()
        first = lines[0]
        heading = re.match(r"^(#{1,4})\s+(.*)$", first)
        if heading and len(lines) == 1:
            level = min(len(heading.group(1)) + 1, 5)
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif first.strip() == "---":
            out.append("<hr>")
        elif first.startswith("|"):
            out.append(_table(lines))
        elif _ITEM.match(first):
            out.append(_list(lines))
        else:
            out.append(f"<p>{inline(' '.join(line.strip() for line in lines))}</p>")
    return "\n".join(out)


def _table(lines: list[str]) -> str:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines
            if not re.fullmatch(r"\|?[\s|:-]+\|?", line.strip())]
    head, *body = rows
    parts = ["<table><thead><tr>", *(f"<th>{inline(c)}</th>" for c in head), "</tr></thead><tbody>"]
    for row in body:
        parts += ["<tr>", *(f"<td>{inline(c)}</td>" for c in row), "</tr>"]
    parts.append("</tbody></table>")
    return "".join(parts)


def _list(lines: list[str]) -> str:
    items: list[tuple[int, str]] = []
    for line in lines:
        match = _ITEM.match(line)
        if match:
            items.append((len(match.group(1)), match.group(2)))
        elif items:
            depth, text = items[-1]
            items[-1] = (depth, f"{text} {line.strip()}")
    body = "".join(f'<li class="depth-{min(depth // 2, 3)}">{inline(text)}</li>' for depth, text in items)
    return f'<ul class="rules-list">{body}</ul>'


def chapters(text: str) -> list[tuple[str, str]]:
    """The full rules cut at their chapter headings (``## ``): ``(title, body)`` pairs, the
    text before the first chapter (without the document's own title) under ``""``."""
    found: list[tuple[str, list[str]]] = [("", [])]
    for line in text.splitlines():
        if line.startswith("## "):
            found.append((line[3:].strip(), []))
        elif not line.startswith("# "):
            found[-1][1].append(line)
    return [(title, "\n".join(body)) for title, body in found if title or "\n".join(body).strip()]


def full_rules_html(lang: Lang) -> str:
    """Every chapter of the full rules as a collapsed section, then the options side by side."""
    sections = []
    for title, body in chapters(full_rules(lang)):
        summary = inline(title) if title else html.escape(t("web.rules.intro_section", lang))
        sections.append(f'<details class="chapter"><summary>{summary}</summary>'
                        f"{markdown_html(body)}</details>")
    sections.append(f'<details class="chapter"><summary>{html.escape(t("web.rules.overview_title", lang))}'
                    f"</summary>{overview_html(lang)}</details>")
    return "".join(sections)


def overview_html(lang: Lang) -> str:
    """Every option with its meaning and its value in each preset."""
    head = "".join(f"<th>{name}</th>" for name in PRESET_NAMES)
    rows = []
    presets = [Rules.preset(name).to_dict() for name in PRESET_NAMES]
    for field, option in RULE_OPTIONS.items():
        cells = "".join(f"<td>{html.escape(option_value(option.text, values[field], lang))}</td>"
                        for values in presets)
        description = html.escape(option_description(option.text, lang))
        rows.append(f"<tr><th scope=\"row\">{html.escape(option_name(option.text, lang))}"
                    f"<br><small>{description}</small></th>{cells}</tr>")
    return (f"<table class=\"overview\"><thead><tr><th>{t('rules.option', lang)}"
            f"</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


# ---------------------------------------------------------------------------- the page


def back_target(asked: str | None) -> str:
    """Where "back to the game" leads: the table page the reader came from (``?back=/t/ID``),
    else the start page; anything else is ignored, so the link never leaves the site."""
    return asked if asked and _TABLE_PAGE.fullmatch(asked) else "/"


def rules_page(lang: Lang, back: str | None = None) -> str:
    """The whole page; ``back`` is the ``?back=`` the reader came with (see :func:`back_target`)."""

    def text(key: str) -> str:
        return html.escape(t(key, lang))

    target = back_target(back)
    keep_back = f"&amp;back={quote(target, safe='/')}" if target != "/" else ""
    current = ' aria-current="page"'
    languages = "".join(
        f'<a lang="{code}" href="/rules?lang={code}{keep_back}"{current if code == lang else ""}>'
        f"{html.escape(language_name(code))}</a>" for code in LANGS)
    back_link = (f'<a class="back-link" data-back href="{html.escape(target)}">'
                 f'<span aria-hidden="true">\u2190 </span>{text("web.rules.back")}</a>')
    again = text("web.rules.play_now" if target == "/" else "web.rules.back")
    head = (f'<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="color-scheme" content="light dark">\n'
            f'<title>Mattis: {text("web.rules.title")}</title>\n'
            '<script src="/static/theme.js"></script><script type="module" src="/static/pwa.js"></script>'
            '<link rel="stylesheet" href="/static/style.css">\n'
            '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">')
    header = (f'<header class="bar"><h1><a href="/">Mattis</a></h1>{back_link}<span class="bar-end">\n'
              f'<button type="button" class="theme-switch" data-action="theme">'
              f'{text("web.ui.theme")}</button>\n<nav class="lang" aria-label="{text("web.ui.language")}">'
              f'{languages}</nav>'
              "</span></header>")
    how_to_play = f"""<section class="panel how-to-play" aria-labelledby="rules-title">
<h2 id="rules-title">{text("web.rules.title")}</h2><p class="lead">{text("web.rules.lead")}</p>
<p class="learn-link"><a href="/learn?lang={lang}" data-learn>{text("web.rules.learn")}</a></p>
<h3>{text("web.rules.howto_title")}</h3><p class="muted">{text("web.rules.howto_note")}</p>
{how_to_play_html(lang)}
<p class="cta"><a class="button primary" data-back-cta href="{html.escape(target)}">{again}</a></p>
</section>"""
    variants = f"""<section class="panel" aria-labelledby="variants-title">
<h3 id="variants-title">{text("web.rules.variants_title")}</h3>
<p>{text("web.rules.variants_intro")}</p>{variants_html(lang)}</section>"""
    full = f"""<section class="panel full-rules" aria-labelledby="full-title">
<h3 id="full-title">{text("web.rules.full_title")}</h3>
<p class="muted">{text("web.rules.full_intro")}</p>{full_rules_html(lang)}</section>"""
    return f"""<!doctype html>
<html lang="{lang}"><head>{head}</head>
<body>{header}<main class="rules-page">
{how_to_play}
{variants}
{full}
<p class="cta">{back_link}</p>
</main><script type="module" src="/static/rules.js"></script></body></html>"""
