/* The rules reference's behaviour: the contents that follow the reading, and the card gallery's search,
   filters and card view, their state kept in the address so it can be shared, bookmarked and gone back through. */
(function () {
  "use strict";

  // A table wider than the screen scrolls in its own box: one that scrolls can be reached by keyboard.
  function scrollableTables() {
    document.querySelectorAll(".table-wrap").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Table, scrolls sideways");
      } else {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }

  function rulesPage() {
    scrollableTables();
    window.addEventListener("resize", scrollableTables);
    var links = Array.prototype.slice.call(document.querySelectorAll(".toc-side a, .toc-drop a"));
    var drop = document.querySelector(".toc-drop");
    var now = document.querySelector(".toc-now");
    if (drop) {
      drop.addEventListener("click", function (event) {
        if (event.target.closest("a")) drop.open = false;
      });
    }
    if (!links.length) return;
    var byId = {};
    links.forEach(function (a) {
      var id = a.getAttribute("href").slice(1);
      (byId[id] = byId[id] || []).push(a);
    });
    var heads = Array.prototype.slice.call(document.querySelectorAll(".rules h2[id], .rules h3[id]"))
      .filter(function (h) { return byId[h.id]; });
    var current = null;
    function mark(id) {
      if (id === current) return;
      current = id;
      links.forEach(function (a) {
        if (byId[id].indexOf(a) >= 0) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
      });
      if (now) now.textContent = byId[id][0].textContent; // the bar on a phone names the section being read
    }
    // the section being read is the last whose heading has passed the top third of the screen
    function follow() {
      var line = window.innerHeight / 3, last = heads[0];
      for (var i = 0; i < heads.length; i++) {
        if (heads[i].getBoundingClientRect().top <= line) last = heads[i]; else break;
      }
      if (last) mark(last.id);
    }
    var queued = false;
    window.addEventListener("scroll", function () {
      if (queued) return;
      queued = true;
      requestAnimationFrame(function () { queued = false; follow(); });
    }, { passive: true });
    follow();
  }

  function cardsPage() {
    var cards = JSON.parse(document.getElementById("cards").textContent);
    var byId = {};
    cards.forEach(function (c, i) { c.order = i; byId[c.id] = c; });
    var form = document.getElementById("filters");
    var list = document.getElementById("results");
    var tiles = {};
    Array.prototype.forEach.call(list.children, function (li) { tiles[li.dataset.id] = li; });
    var count = document.getElementById("count");
    var none = document.getElementById("none");
    var search = document.getElementById("q");
    var sort = document.getElementById("sort");
    var more = document.getElementById("more");
    var panel = document.getElementById("panel");
    var active = document.getElementById("active");
    var dialog = document.getElementById("detail");
    var shown = cards.slice();
    var open = null; // the card in the card view
    var typing = false; // the address was last changed by typing in the search: more typing replaces it

    function facetInputs() { return form.querySelectorAll("[data-facet]"); }
    function numberInputs() { return form.querySelectorAll("input[data-number]"); }

    // --- the filters and the address -------------------------------------------------------------------
    function state() {
      var params = new URLSearchParams();
      if (search.value.trim()) params.set("q", search.value.trim());
      form.querySelectorAll("input[type=radio]:checked").forEach(function (r) { if (r.value) params.set(r.name, r.value); });
      form.querySelectorAll("select[data-facet]").forEach(function (s) { if (s.value) params.set(s.name, s.value); });
      numberInputs().forEach(function (n) { if (n.value !== "") params.set(n.name, n.value); });
      if (sort && sort.value) params.set("sort", sort.value);
      return params;
    }

    function restore(params) {
      search.value = params.get("q") || "";
      form.querySelectorAll("fieldset[data-facet]").forEach(function (set) {
        var wanted = params.get(set.dataset.facet) || "";
        var radios = set.querySelectorAll("input[type=radio]");
        var found = false;
        radios.forEach(function (r) { r.checked = r.value === wanted; found = found || r.checked; });
        if (!found) radios[0].checked = true;
      });
      form.querySelectorAll("select[data-facet]").forEach(function (s) {
        var wanted = params.get(s.name) || "";
        s.value = Array.prototype.some.call(s.options, function (o) { return o.value === wanted; }) ? wanted : "";
      });
      numberInputs().forEach(function (n) {
        var v = params.get(n.name);
        n.value = v !== null && v.trim() !== "" && isFinite(Number(v)) ? v : "";
      });
      if (sort) {
        var s = params.get("sort") || "";
        sort.value = Array.prototype.some.call(sort.options, function (o) { return o.value === s; }) ? s : "";
      }
    }

    function address(params, hash) {
      var query = params.toString();
      return location.pathname + (query ? "?" + query : "") + (hash || "");
    }

    function remember(byTyping) {
      var url = address(state(), open ? "#card-" + open.id : "");
      if (url === location.pathname + location.search + location.hash) return;
      if (byTyping && typing) history.replaceState(history.state, "", url);
      else history.pushState(null, "", url);
      typing = byTyping;
    }

    // --- which cards show ------------------------------------------------------------------------------
    function words(text) { return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, ""); }
    cards.forEach(function (c) { c.words = words(c.search); });

    function matches(card, params) {
      var q = words(params.get("q") || "").split(/\s+/).filter(Boolean);
      for (var i = 0; i < q.length; i++) if (card.words.indexOf(q[i]) < 0) return false;
      var facets = facetInputs();
      for (var j = 0; j < facets.length; j++) {
        var key = facets[j].dataset.facet, wanted = params.get(key);
        if (wanted && (card.facets[key] || []).indexOf(wanted) < 0) return false;
      }
      var numbers = numberInputs();
      for (var k = 0; k < numbers.length; k++) {
        var raw = params.get(numbers[k].name);
        if (raw === null || raw === "") continue;
        var n = card.numbers[numbers[k].dataset.number];
        if (n === undefined) return false;
        if (numbers[k].dataset.bound === "min" ? n < Number(raw) : n > Number(raw)) return false;
      }
      return true;
    }

    function show() {
      var params = state();
      var key = params.get("sort") || "";
      shown = cards.filter(function (c) { return matches(c, params); });
      if (key === "name") shown.sort(function (a, b) { return a.name.localeCompare(b.name) || a.order - b.order; });
      else if (key) {
        shown.sort(function (a, b) {
          var x = a.numbers[key], y = b.numbers[key];
          if (x === undefined) x = -Infinity;
          if (y === undefined) y = -Infinity;
          return y - x || a.order - b.order;
        });
      }
      var visible = {};
      shown.forEach(function (c) { visible[c.id] = true; });
      var order = key ? shown.concat(cards.filter(function (c) { return !visible[c.id]; })) : cards;
      var children = list.children;
      order.forEach(function (c, i) {
        var tile = tiles[c.id];
        tile.hidden = !visible[c.id];
        if (children[i] !== tile) list.insertBefore(tile, children[i] || null);
      });
      count.textContent = shown.length + " of " + cards.length + " cards";
      none.hidden = shown.length > 0;
      var n = 0;
      params.forEach(function (value, name) { if (name !== "q" && name !== "sort") n++; });
      active.hidden = n === 0;
      active.textContent = n ? String(n) : "";
    }

    form.addEventListener("input", function (event) {
      show();
      remember(event.target === search || event.target.type === "number");
    });
    form.addEventListener("change", function (event) {
      if (event.target === search || event.target.type === "number") return; // remembered as typed
      show();
      remember(false);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    function clear() {
      restore(new URLSearchParams());
      show();
      remember(false);
    }
    form.addEventListener("reset", function (event) { event.preventDefault(); clear(); search.focus(); });
    document.getElementById("clear-too").addEventListener("click", function () { clear(); search.focus(); });
    more.addEventListener("click", function () {
      var wide = panel.classList.toggle("open");
      more.setAttribute("aria-expanded", wide ? "true" : "false");
    });

    // --- the card view -----------------------------------------------------------------------------------
    function element(tag, text, className) {
      var el = document.createElement(tag);
      if (text !== undefined) el.textContent = text;
      if (className) el.className = className;
      return el;
    }

    function fill(card) {
      var img = document.getElementById("detail-img");
      img.removeAttribute("src");
      img.width = card.full.width;
      img.height = card.full.height;
      img.src = card.full.src;
      img.alt = "The card " + card.name + ", as printed";
      var full = document.getElementById("detail-full");
      full.href = card.full.src;
      document.getElementById("detail-size").textContent =
        card.full.width + " × " + card.full.height + " px, " + card.full.dpi + " dpi";
      document.getElementById("detail-kind").textContent = card.kind;
      document.getElementById("detail-name").textContent = card.name;
      var lines = document.getElementById("detail-lines");
      lines.textContent = "";
      // each line as the card prints it, run by run: text nodes, in bold or italic, and its icons' pictures
      card.rules_runs.forEach(function (runs) {
        var li = element("li");
        runs.forEach(function (run) {
          if (run.icon) {
            var icon = element("img", undefined, "icon");
            icon.src = run.src;
            icon.alt = run.icon;
            li.appendChild(icon);
            return;
          }
          var piece = element(run.b ? "strong" : "span", run.text);
          if (run.i) { var em = element("em"); em.appendChild(piece); piece = em; }
          li.appendChild(piece);
        });
        lines.appendChild(li);
      });
      document.getElementById("detail-flavour").textContent = card.flavour;
      document.getElementById("detail-rules").hidden = !card.rules.length && !card.flavour;
      var fields = document.getElementById("detail-fields");
      fields.textContent = "";
      card.fields.forEach(function (pair) {
        var row = element("div");
        row.append(element("dt", pair[0]), element("dd", pair[1]));
        fields.appendChild(row);
      });
      var links = document.getElementById("detail-links");
      links.textContent = "";
      card.mentions.forEach(function (m) {
        var a = element("a", m[1]);
        a.href = "index.html#" + m[0];
        var li = element("li");
        li.appendChild(a);
        links.appendChild(li);
      });
      document.getElementById("detail-mentions").hidden = !card.mentions.length;
      var figures = document.getElementById("detail-figures");
      if (figures) {
        figures.textContent = "";
        card.balance.forEach(function (f) {
          var row = element("div", undefined, "figure");
          var dd = element("dd");
          var bar = element("span", undefined, "bar" + (f.signed ? " signed" : ""));
          bar.setAttribute("aria-hidden", "true");
          var span = element("span", undefined, "interval");
          span.style.left = f.low + "%";
          span.style.width = Math.max(0.5, f.high - f.low) + "%";
          var dot = element("span", undefined, "dot");
          dot.style.left = f.at + "%";
          bar.append(span, dot);
          dd.append(element("span", f.words, "words"), bar);
          row.append(element("dt", f.label), dd);
          figures.appendChild(row);
        });
        document.getElementById("detail-balance").hidden = !card.balance.length;
      }
      var at = shown.indexOf(card);
      document.getElementById("detail-place").textContent = at >= 0 ? (at + 1) + " of " + shown.length : "";
      document.getElementById("prev").disabled = at <= 0;
      document.getElementById("next").disabled = at < 0 || at >= shown.length - 1;
    }

    function openCard(card, push) {
      open = card;
      fill(card);
      if (!dialog.open) dialog.showModal();
      var url = address(state(), "#card-" + card.id);
      if (push) history.pushState({ card: card.id }, "", url);
      else if (location.hash !== "#card-" + card.id) history.replaceState(history.state, "", url);
      typing = false;
    }

    function focusTile(card) {
      var link = tiles[card.id] && tiles[card.id].querySelector("a");
      if (link && !tiles[card.id].hidden) {
        link.focus({ preventScroll: true });
        link.scrollIntoView({ block: "nearest" });
      } else search.focus();
    }

    dialog.addEventListener("close", function () {
      var was = open;
      open = null;
      if (location.hash.indexOf("#card-") === 0) {
        if (history.state && history.state.card) history.back(); // the card was opened here: go back past it
        else history.replaceState(null, "", address(state(), ""));
      }
      if (was) focusTile(was);
    });
    document.getElementById("close").addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("click", function (event) { if (event.target === dialog) dialog.close(); });
    function step(by) {
      var at = shown.indexOf(open);
      var next = shown[at + by];
      if (next) openCard(next, false);
    }
    document.getElementById("prev").addEventListener("click", function () { step(-1); });
    document.getElementById("next").addEventListener("click", function () { step(1); });
    dialog.addEventListener("keydown", function (event) {
      if (event.target.closest && event.target.closest("input, select, textarea")) return;
      if (event.key === "ArrowLeft") { step(-1); event.preventDefault(); }
      if (event.key === "ArrowRight") { step(1); event.preventDefault(); }
    });
    list.addEventListener("click", function (event) {
      var link = event.target.closest("a.tile-link");
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      openCard(byId[link.closest("li").dataset.id], true);
    });

    function follow() {
      restore(new URLSearchParams(location.search));
      show();
      var m = /^#card-(.+)$/.exec(location.hash);
      var card = m ? byId[decodeURIComponent(m[1])] : null;
      if (card) openCard(card, false);
      else if (dialog.open) dialog.close(); // gone back past it: the close handler returns the focus
    }
    window.addEventListener("popstate", follow);
    window.addEventListener("hashchange", follow);
    // printing the gallery prints every card shown, so none may wait to load
    window.addEventListener("beforeprint", function () {
      list.querySelectorAll("img[loading=lazy]").forEach(function (img) { img.loading = "eager"; });
    });
    follow();
  }

  function start() {
    if (document.getElementById("cards")) cardsPage();
    if (document.querySelector(".rules")) rulesPage();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
