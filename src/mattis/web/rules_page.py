"""The rules as a web page, in bokmål or English.

The page opens with every rule option side by side for the three presets (from
:mod:`mattis.i18n`, so it always matches the engine), then the full rules text shipped
with the package (:func:`mattis.frontend.rules_text.full_rules`). That Markdown uses a
small set of features (headings, paragraphs, lists, tables, emphasis, code, links), and
:func:`markdown_html` renders exactly those, escaping everything else.
"""

from __future__ import annotations

import html
import re

from ..core.rules import PRESET_NAMES, Rules
from ..frontend.rules_text import full_rules
from ..i18n import Lang, option_description, option_name, option_value, preset_summary, t

_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*((?:[^*]|\*[^*]+\*)+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"\[([^\]]+)\]\(rules\.(nb|en)\.md\)"), r'<a href="/rules?lang=\2">\1</a>'),
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),
]
_ITEM = re.compile(r"^(\s*)(?:[-*]|\d+\.)\s+(.*)$")


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


def overview_html(lang: Lang) -> str:
    """Every option with its meaning and its value in each preset."""
    head = "".join(f"<th>{name}</th>" for name in PRESET_NAMES)
    rows = []
    presets = [Rules.preset(name).to_dict() for name in PRESET_NAMES]
    for field in Rules.option_names():
        cells = "".join(f"<td>{html.escape(option_value(field, values[field], lang))}</td>"
                        for values in presets)
        rows.append(f"<tr><th scope=\"row\">{html.escape(option_name(field, lang))}"
                    f"<br><small>{html.escape(option_description(field, lang))}</small></th>{cells}</tr>")
    summaries = "".join(f"<li><strong>{name}</strong>: {html.escape(preset_summary(name, lang))}</li>"
                        for name in PRESET_NAMES)
    return (f"<ul>{summaries}</ul><table class=\"overview\"><thead><tr><th>{t('rules.option', lang)}"
            f"</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def rules_page(lang: Lang) -> str:
    """The whole page."""
    other: Lang = "en" if lang == "nb" else "nb"
    other_name = "English" if other == "en" else "Norsk"
    full = markdown_html(full_rules(lang))
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mattis: {html.escape(t('web.ui.rules_link', lang))}</title>
<link rel="stylesheet" href="/static/style.css"><link rel="icon" href="/static/icon.svg"></head>
<body><header class="bar"><h1><a href="/">Mattis</a></h1>
<nav class="lang"><a class="rules-link" href="/rules?lang={other}">{other_name}</a></nav>
</header><main class="rules-page panel"><h2>{html.escape(t('web.ui.rules_title', lang))}</h2>
{overview_html(lang)}{full}</main></body></html>"""
