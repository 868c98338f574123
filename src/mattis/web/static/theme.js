// The colour theme: light, dark, or (nothing saved) whatever the system asks for. A classic
// script for the <head> of every page, so the saved choice is applied before the first paint
// and the page never flashes white in the dark.
//
// localStorage["mattis.theme"] is "light" or "dark"; absent means "follow the system". The
// choice shows as <html data-theme="…">, which style.css reads. Every <button
// data-action="theme"> switches to the other theme and says which is on through aria-pressed
// ("true" = dark) and data-theme-now, so CSS can draw its icon; its words come from the page. Choosing what the system gives anyway forgets the
// choice, so the page follows the system again.
(function () {
  "use strict";
  var KEY = "mattis.theme";
  var root = document.documentElement;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  var unsaved = null; // the choice, when storage is refused (private mode): kept for this page

  function saved() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : null;
    } catch (error) {
      return unsaved;
    }
  }

  function remember(choice) {
    unsaved = choice;
    try {
      if (choice) window.localStorage.setItem(KEY, choice);
      else window.localStorage.removeItem(KEY);
    } catch (error) { /* not remembered after this page, but switched */ }
  }

  function systemTheme() {
    return dark && dark.matches ? "dark" : "light";
  }

  function currentTheme() {
    return saved() || systemTheme();
  }

  function label() {
    var now = currentTheme();
    var buttons = document.querySelectorAll('button[data-action="theme"]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", String(now === "dark"));
      buttons[i].setAttribute("data-theme-now", now);
    }
  }

  function apply() {
    var choice = saved();
    if (choice) root.setAttribute("data-theme", choice);
    else root.removeAttribute("data-theme");
    root.style.colorScheme = currentTheme();
    label();
  }

  function toggle() {
    var next = currentTheme() === "dark" ? "light" : "dark";
    remember(next === systemTheme() ? null : next);
    apply();
  }

  apply();
  document.addEventListener("click", function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('button[data-action="theme"]') : null;
    if (button) toggle();
  });
  document.addEventListener("DOMContentLoaded", label);
  if (dark && dark.addEventListener) dark.addEventListener("change", apply);
  window.addEventListener("storage", function (event) {
    if (event.key === KEY) apply(); // switched in another tab
  });
  // For a page that adds a theme button after loading: window.mattisTheme.refresh().
  window.mattisTheme = { current: currentTheme, toggle: toggle, refresh: label };
})();
