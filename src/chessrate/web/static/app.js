/* chessrate: the little the page needs besides htmx. Errors beside their fields, the chart,
   a club rules file read into the text area, a player's games opened from the report.
   Without JavaScript the form submits as usual. */
(function () {
  "use strict";

  if (window.htmx) {
    document.documentElement.classList.add("live");
    // "Busy, try again in a minute" (503 with Retry-After) and "too many fetches from this address"
    // (429, the strength page's usernames) are messages to show, like a 200.
    document.addEventListener("htmx:beforeSwap", function (event) {
      var status = event.detail.xhr.status;
      if (status === 503 || status === 429) {
        event.detail.shouldSwap = true;
        event.detail.isError = false;
      }
    });
  }

  function syncErrors() {
    var data = document.getElementById("errors-data");
    if (!data) return;
    var errors = {};
    try { errors = JSON.parse(data.getAttribute("data-errors") || "{}"); } catch (e) { errors = {}; }
    var slots = document.querySelectorAll("#form .error[id^='error-']");
    Array.prototype.forEach.call(slots, function (slot) {
      var message = errors[slot.id.slice(6)] || "";
      if (slot.textContent !== message) slot.textContent = message;
      var fields = document.querySelectorAll("[aria-describedby~='" + slot.id + "']");
      Array.prototype.forEach.call(fields, function (field) {
        if (message) field.setAttribute("aria-invalid", "true");
        else field.removeAttribute("aria-invalid");
      });
    });
  }

  var chart = null;

  function marks() {
    var holder = document.getElementById("chart-marks");
    if (!holder) return [];
    try { return JSON.parse(holder.getAttribute("data-marks") || "[]"); } catch (e) { return []; }
  }

  function drawMarks(u) {
    var ctx = u.ctx, ratio = window.devicePixelRatio || 1;
    ctx.save();
    marks().forEach(function (mark) {
      var x = u.valToPos(Math.max(-800, Math.min(800, mark[0])), "x", true);
      var y = u.valToPos(mark[1], "y", true);
      ctx.beginPath();
      ctx.arc(x, y, 6 * ratio, 0, 2 * Math.PI);
      ctx.fillStyle = "#1a7f37";
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = 2 * ratio;
      ctx.fill();
      ctx.stroke();
    });
    ctx.restore();
  }

  function initChart() {
    var box = document.getElementById("chart");
    if (!box || !window.uPlot || !window.fetch) return;
    fetch(box.getAttribute("data-curve-url")).then(function (response) {
      return response.json();
    }).then(function (curves) {
      var labels = box.dataset;
      var format = numberFormat(2);
      // Before the pointer is on the chart the legend shows the names alone, not "--".
      var shown = function (u, value) { return value == null ? "" : format.format(value); };
      var options = {
        width: Math.max(280, box.clientWidth),
        height: 300,
        scales: { x: { time: false }, y: { range: [0, 1] } },
        axes: [
          Object.assign({ label: labels.labelX }, axisColours()),
          Object.assign({ label: labels.labelY }, axisColours())
        ],
        series: [
          { label: "D", value: function (u, value) { return value == null ? "" : numberFormat(0).format(value); } },
          { label: labels.labelFormula, stroke: "#0b5cad", width: 2, value: shown },
          { label: labels.labelTable, stroke: "#b42318", width: 1.5, value: shown }
        ],
        hooks: { draw: [drawMarks] }
      };
      chart = new window.uPlot(options, [curves.difference, curves.formula, curves.table], box);
      box.setAttribute("data-ready", "true");
      window.addEventListener("resize", function () {
        chart.setSize({ width: Math.max(280, box.clientWidth), height: 300 });
      });
    });
  }

  // The axes in the page's own colours (light or dark, prefers-color-scheme).
  function axisColours() {
    var style = getComputedStyle(document.documentElement);
    var ink = style.getPropertyValue("--ink").trim() || "#1b1f24";
    var line = style.getPropertyValue("--line").trim() || "#d0d7de";
    return { stroke: ink, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
  }

  function numberFormat(places) {
    return new Intl.NumberFormat(document.documentElement.lang || undefined,
      { maximumFractionDigits: places, useGrouping: false });
  }

  // A player's rating history on the rating list: the list dates on x, the rating on y, values on hover.
  function initHistory() {
    var box = document.getElementById("history-chart");
    var data = document.getElementById("history-data");
    if (!box || !data || !window.uPlot) return;
    var points;
    try { points = JSON.parse(data.textContent); } catch (e) { return; }
    if (!points.days.length) return;
    var lang = document.documentElement.lang || undefined;
    var day = new Intl.DateTimeFormat(lang, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
    var tick = new Intl.DateTimeFormat(lang, { year: "2-digit", month: "short", timeZone: "UTC" });
    var whole = numberFormat(0);
    var xs = points.days.map(function (text) { return Date.parse(text + "T00:00:00Z") / 1000; });
    var low = Math.min.apply(null, points.ratings), high = Math.max.apply(null, points.ratings);
    var width = function () { return Math.max(260, box.clientWidth); };
    // The ticks are the lists' dates themselves, as many as fit (one in every `step`).
    var listDates = function (u) {
      var step = Math.max(1, Math.ceil(xs.length / Math.max(2, Math.floor(u.bbox.width / (window.devicePixelRatio || 1) / 70))));
      return xs.filter(function (x, i) { return i % step === 0; });
    };
    var options = {
      width: width(),
      height: 260,
      scales: {
        x: { time: false, range: function () { return xs.length > 1 ? [xs[0], xs[xs.length - 1]] : [xs[0] - 86400 * 15, xs[0] + 86400 * 15]; } },
        y: { range: function () { return [Math.floor((low - 30) / 50) * 50, Math.ceil((high + 30) / 50) * 50]; } }
      },
      axes: [
        Object.assign({ label: box.dataset.labelX, splits: listDates, values: function (u, ticks) { return ticks.map(function (t) { return tick.format(new Date(t * 1000)); }); } }, axisColours()),
        Object.assign({ label: box.dataset.labelY, size: 60, values: function (u, ticks) { return ticks.map(function (t) { return whole.format(t); }); } }, axisColours())
      ],
      series: [
        { label: box.dataset.labelX, value: function (u, ts) { return ts == null ? "" : day.format(new Date(ts * 1000)); } },
        { label: box.dataset.labelY, stroke: "#0b5cad", width: 2, points: { show: true, size: 7 },
          value: function (u, v) { return v == null ? "" : whole.format(v); } }
      ]
    };
    var history = new window.uPlot(options, [xs, points.ratings], box);
    box.setAttribute("data-ready", "true");
    window.addEventListener("resize", function () { history.setSize({ width: width(), height: 260 }); });
  }

  // Copy the page's URL (it always holds the values shown) and print.
  function initShare() {
    var copy = document.getElementById("copy-link");
    var print = document.getElementById("print-page");
    var status = document.getElementById("share-status");
    if (copy && navigator.clipboard) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        navigator.clipboard.writeText(window.location.href).then(function () {
          if (status) status.textContent = copy.getAttribute("data-done");
        });
      });
    }
    if (print && window.print) {
      print.hidden = false;
      print.addEventListener("click", function () { window.print(); });
    }
  }

  function readRulesFile(event) {
    var input = event.target;
    if (input.name !== "rules_file" || !input.files || !input.files[0] || !input.files[0].text) return;
    input.files[0].text().then(function (text) {
      var area = document.getElementById("f-rules_toml");
      if (!area) return;
      area.value = text;
      input.value = "";
      area.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  // A link to a closed <details> (a player's games in the tournament-file report) opens it.
  function openLinkedDetails(event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    var target = link && document.getElementById(link.getAttribute("href").slice(1));
    if (target && target.tagName === "DETAILS") target.open = true;
  }

  document.addEventListener("click", openLinkedDetails);
  document.addEventListener("htmx:afterSettle", function () {
    syncErrors();
    if (chart) chart.redraw(false, false);
  });
  document.addEventListener("change", readRulesFile, true);
  syncErrors();
  initChart();
  initHistory();
  initShare();
})();
