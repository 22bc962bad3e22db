// "Strength from the moves": one uPlot chart of White's win% per game, drawn when the result arrives.
(function () {
  "use strict";

  function drawCharts() {
    if (!window.uPlot) return;
    document.querySelectorAll(".eval-chart:not([data-ready])").forEach(function (box) {
      var plies = JSON.parse(box.dataset.plies);
      var win = JSON.parse(box.dataset.win);
      // Before the pointer is on the chart the legend shows the names alone, not "--" (issue 27).
      var format = new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 1 });
      var shown = function (u, value) { return value == null ? "" : format.format(value); };
      var options = {
        width: Math.max(280, box.clientWidth),
        height: 200,
        scales: { x: { time: false }, y: { range: [0, 100] } },
        axes: [{ label: box.dataset.labelX }, { label: "%", size: 40 }],
        series: [{ label: box.dataset.labelX, value: shown }, { label: box.dataset.labelY, stroke: "#0b5cad", width: 2, fill: "rgba(11, 92, 173, 0.12)", value: shown }]
      };
      new window.uPlot(options, [plies, win], box);
      box.setAttribute("data-ready", "true");
    });
  }

  document.addEventListener("DOMContentLoaded", drawCharts);
  document.addEventListener("htmx:afterSettle", drawCharts);
})();
