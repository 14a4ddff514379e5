// cloudqual: sorting and filtering for tables of results (table[data-cq-table]).
// Without this script such a table reads as a plain table, so nothing here is needed to read
// the site. It is served from the site itself, runs under the pages' content security policy
// (script-src 'self'), and requests nothing.
(function () {
  "use strict";

  // A cell's value for sorting and filtering: its data-cq-value where the shown text is not
  // the value (a GPU count, an ISO date), else its text.
  function valueOf(cell) {
    const value = cell.getAttribute("data-cq-value");
    return (value === null ? cell.textContent : value).trim();
  }

  function compare(kind, a, b) {
    // Empty values (undated, not stated) sort last in either direction.
    if (a === "" || b === "") return (a === "") - (b === "");
    if (kind === "number") return parseFloat(a) - parseFloat(b);
    return a.localeCompare(b, "en", { numeric: true, sensitivity: "base" });
  }

  function setUp(table) {
    const head = table.tHead.rows[0];
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const filters = [];
    const noun = table.getAttribute("data-cq-noun") || "rows";
    const controls = document.createElement("div");
    controls.className = "cq-controls";
    const status = document.createElement("p");
    status.className = "cq-note";
    status.setAttribute("role", "status");

    function apply() {
      let shown = 0;
      for (const row of rows) {
        const keep = filters.every(
          (f) => f.select.value === "" || valueOf(row.cells[f.index]) === f.select.value,
        );
        row.hidden = !keep;
        shown += keep ? 1 : 0;
      }
      status.textContent = `${shown} of ${rows.length} ${noun} shown.`;
    }

    Array.from(head.cells).forEach((th, index) => {
      const name = th.textContent.trim();
      const filter = th.getAttribute("data-cq-filter");
      if (filter !== null) {
        const label = document.createElement("label");
        label.textContent = name;
        const select = document.createElement("select");
        select.name = `cq-${filter}`;
        select.add(new Option(`Every ${name.toLowerCase()}`, ""));
        const values = [...new Set(rows.map((row) => valueOf(row.cells[index])))];
        values.sort((a, b) => compare("text", a, b));
        for (const value of values) select.add(new Option(value, value));
        select.addEventListener("change", apply);
        label.appendChild(select);
        controls.appendChild(label);
        filters.push({ index, select });
      }
      const kind = th.getAttribute("data-cq-sort") || "text";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cq-sort";
      button.textContent = name;
      button.title = `Sort by ${name.toLowerCase()}`;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", () => {
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        for (const other of head.cells) other.removeAttribute("aria-sort");
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const keyed = rows.map((row, position) => [valueOf(row.cells[index]), position, row]);
        keyed.sort((x, y) => {
          if (x[0] === "" || y[0] === "") return compare(kind, x[0], y[0]) || x[1] - y[1];
          const order = compare(kind, x[0], y[0]);
          return (ascending ? order : -order) || x[1] - y[1];
        });
        for (const [, , row] of keyed) body.appendChild(row);
      });
    });
    controls.appendChild(status);
    const holder = table.closest(".cq-scroll") || table;
    holder.parentNode.insertBefore(controls, holder);
    apply();
  }

  document.querySelectorAll("table[data-cq-table]").forEach(setUp);
})();
