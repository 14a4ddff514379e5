// cloudqual: sorting and filtering for tables of results (table[data-cq-table]).
// Without this script such a table reads as a plain table, so nothing here is needed to read
// the site. It is served from the site itself, runs under the pages' content security policy
// (script-src 'self'), and requests nothing.
//
// A column head says how its column is narrowed:
// - data-cq-filter="NAME": a choice of the column's values (data-cq-multiple: several at once);
// - data-cq-range="number" or "date", data-cq-param="NAME": a lowest and a highest value, as
//   NAME-min and NAME-max. While a bound is set, a row with no value there is left out, and the
//   status line says so.
// A table with data-cq-url keeps its filters in the page's address (?chip=B300&gpus-min=256),
// so a view can be shared and bookmarked, and restores them from it.
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

  // A choice of the column's values: a select, of one value or (multiple) several.
  function choice(name, filter, index, rows, multiple) {
    const label = document.createElement("label");
    label.textContent = name;
    const select = document.createElement("select");
    select.name = `cq-${filter}`;
    if (multiple) {
      select.multiple = true;
      select.size = 4;
    } else {
      select.add(new Option(`Every ${name.toLowerCase()}`, ""));
    }
    const values = [...new Set(rows.map((row) => valueOf(row.cells[index])))];
    values.sort((a, b) => compare("text", a, b));
    for (const value of values) select.add(new Option(value, value));
    label.appendChild(select);
    const chosen = () => Array.from(select.selectedOptions, (o) => o.value).filter((v) => v);
    return {
      index,
      element: label,
      controls: [select],
      param: filter,
      values: chosen,
      set(values) {
        for (const value of values) {
          // A value the table does not hold (an old link) is kept, and matches no row.
          if (!Array.from(select.options).some((o) => o.value === value)) {
            select.add(new Option(value, value));
          }
        }
        for (const option of select.options) option.selected = values.includes(option.value);
        if (!multiple && !values.length) select.value = "";
      },
      test(value) {
        const wanted = chosen();
        return wanted.length === 0 || wanted.includes(value);
      },
      bounded: () => false,
    };
  }

  // A lowest and a highest value of a number or date column.
  function range(name, kind, param, index) {
    const group = document.createElement("span");
    group.className = "cq-range";
    const inputs = ["min", "max"].map((end) => {
      const label = document.createElement("label");
      label.textContent = `${name}, ${end === "min" ? "from" : "to"}`;
      const input = document.createElement("input");
      input.type = kind === "date" ? "date" : "number";
      if (kind === "number") input.min = "0";
      input.name = `cq-${param}-${end}`;
      label.appendChild(input);
      group.appendChild(label);
      return input;
    });
    const [low, high] = inputs;
    const number = (text) => (kind === "number" ? parseFloat(text) : text);
    return {
      index,
      element: group,
      controls: inputs,
      param: null,
      params: [`${param}-min`, `${param}-max`],
      values: () => inputs.map((input) => input.value),
      set(values) {
        inputs.forEach((input, i) => {
          input.value = values[i] || "";
        });
      },
      test(value) {
        if (low.value === "" && high.value === "") return true;
        if (value === "") return false;
        if (low.value !== "" && number(value) < number(low.value)) return false;
        return high.value === "" || number(value) <= number(high.value);
      },
      bounded: () => low.value !== "" || high.value !== "",
      name,
    };
  }

  // A box on each row: two rows picked give a link to their side-by-side view (`pairs` is the
  // side-by-side index's address, which opens the pair's own page where the site has one).
  function picker(rows, pairs) {
    const bar = document.createElement("p");
    bar.className = "cq-picker";
    const words = document.createElement("span");
    const open = document.createElement("a");
    bar.append(words, " ", open);
    const picked = [];
    function show() {
      open.hidden = picked.length !== 2;
      words.textContent =
        picked.length === 2 ? "" : `Pick two results to set them side by side (${picked.length} of 2).`;
      if (picked.length === 2) {
        const address = new URL(pairs);
        address.search = new URLSearchParams({ a: picked[0].id, b: picked[1].id }).toString();
        open.href = address.href;
        open.textContent = `Open ${picked[0].label} and ${picked[1].label} side by side`;
      }
    }
    for (const row of rows) {
      const id = row.getAttribute("data-cq-id");
      if (id === null) continue;
      const label = row.cells[0].textContent.trim() + ", " + row.cells[1].textContent.trim();
      const box = document.createElement("input");
      box.type = "checkbox";
      box.className = "cq-pick";
      box.setAttribute("aria-label", `Pick ${label}`);
      box.addEventListener("change", () => {
        const at = picked.findIndex((p) => p.id === id);
        if (box.checked && at < 0) picked.push({ id, label, box });
        if (!box.checked && at >= 0) picked.splice(at, 1);
        while (picked.length > 2) {
          const first = picked.shift();
          first.box.checked = false;
        }
        show();
      });
      row.cells[0].prepend(box, " ");
    }
    show();
    return bar;
  }

  function setUp(table) {
    const head = table.tHead.rows[0];
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const filters = [];
    const noun = table.getAttribute("data-cq-noun") || "rows";
    const useAddress = table.hasAttribute("data-cq-url");
    const controls = document.createElement("div");
    controls.className = "cq-controls";
    const status = document.createElement("p");
    status.className = "cq-note";
    status.setAttribute("role", "status");
    const reset = document.createElement("a");
    reset.className = "cq-reset";
    reset.textContent = `Show every ${noun.replace(/s$/, "")}`;
    const plain = new URL(window.location.href);
    plain.search = "";
    reset.href = plain.href;

    // The filters as address parameters, in the columns' order.
    function parameters() {
      const params = new URLSearchParams();
      for (const f of filters) {
        if (f.param !== null) {
          for (const value of f.values()) params.append(f.param, value);
        } else {
          f.values().forEach((value, i) => {
            if (value !== "") params.set(f.params[i], value);
          });
        }
      }
      return params;
    }

    // A figure that counts the answers of the rows shown (figure[data-cq-shown=TABLE]): each
    // row carries its answers in the questions' order (data-cq-answers), and each of the
    // figure's rows is one question. Redrawn on every filter, as text and as a bar.
    const summary = document.querySelector(
      `figure[data-cq-shown="${table.getAttribute("data-cq-table")}"]`,
    );

    function summarise() {
      if (summary === null) return;
      const order = (summary.getAttribute("data-cq-order") || "").split(" ");
      const counts = [];
      for (const row of rows) {
        if (row.hidden) continue;
        // A row's answers are written as digits, each a word's place in the figure's order:
        // words would add 100 bytes a row to a page of a thousand results.
        Array.from(row.getAttribute("data-cq-answers") || "", (digit) => order[+digit]).forEach((word, i) => {
          counts[i] = counts[i] || new Map();
          counts[i].set(word, (counts[i].get(word) || 0) + 1);
        });
      }
      summary.querySelectorAll("tbody tr").forEach((line, i) => {
        const bar = line.querySelector(".cq-stack");
        const words = line.querySelector(".cq-stack__words");
        const parts = [];
        bar.textContent = "";
        for (const word of order) {
          const n = (counts[i] && counts[i].get(word)) || 0;
          if (n === 0) continue;
          const part = document.createElement("span");
          part.className = `cq-stack__part cq-stack__part--${word}`;
          part.style.flexGrow = String(n);
          bar.appendChild(part);
          parts.push(`${n} ${word.replace(/-/g, " ")}`);
        }
        words.textContent = parts.length ? parts.join(", ") : "no result shown";
      });
    }

    function apply() {
      let shown = 0;
      for (const row of rows) {
        const keep = filters.every((f) => f.test(valueOf(row.cells[f.index])));
        row.hidden = !keep;
        shown += keep ? 1 : 0;
      }
      const bounded = filters.filter((f) => f.bounded()).map((f) => f.name.toLowerCase());
      let words = `${shown} of ${rows.length} ${noun} shown.`;
      if (bounded.length) {
        const them = bounded.length > 1 ? "they are" : "it is";
        words += ` Those that state no ${bounded.join(" or ")} are left out while ${them} bounded.`;
      }
      status.textContent = words;
      summarise();
      const query = parameters().toString();
      reset.hidden = query === "";
      if (useAddress) {
        const address = new URL(window.location.href);
        address.search = query;
        window.history.replaceState(null, "", address.href);
      }
    }

    Array.from(head.cells).forEach((th, index) => {
      const name = th.textContent.trim();
      const filter = th.getAttribute("data-cq-filter");
      const kind = th.getAttribute("data-cq-range");
      let made = null;
      if (filter !== null) {
        made = choice(name, filter, index, rows, th.hasAttribute("data-cq-multiple"));
      } else if (kind !== null) {
        made = range(name, kind, th.getAttribute("data-cq-param") || `col${index}`, index);
      }
      if (made !== null) {
        for (const control of made.controls) {
          control.addEventListener("change", apply);
          control.addEventListener("input", apply);
        }
        controls.appendChild(made.element);
        filters.push(made);
      }
      const sort = th.getAttribute("data-cq-sort") || "text";
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
          if (x[0] === "" || y[0] === "") return compare(sort, x[0], y[0]) || x[1] - y[1];
          const order = compare(sort, x[0], y[0]);
          return (ascending ? order : -order) || x[1] - y[1];
        });
        for (const [, , row] of keyed) body.appendChild(row);
      });
    });
    reset.addEventListener("click", (event) => {
      event.preventDefault();
      for (const f of filters) f.set([]);
      apply();
    });
    controls.appendChild(status);
    controls.appendChild(reset);
    const target = document.getElementById(table.getAttribute("data-cq-pick") || "");
    if (target !== null) controls.appendChild(picker(rows, target.href));
    if (useAddress) {
      const params = new URLSearchParams(window.location.search);
      for (const f of filters) {
        f.set(f.param !== null ? params.getAll(f.param) : f.params.map((p) => params.get(p)));
      }
    }
    const holder = table.closest(".cq-scroll") || table;
    holder.parentNode.insertBefore(controls, holder);
    apply();
  }

  document.querySelectorAll("table[data-cq-table]").forEach(setUp);

  // The side-by-side view of two results picked on the compare page (?a=ID&b=ID): the pair's
  // own page where the site has one, else composed here from the two results' API documents.
  // Every value is set as text, never as markup.
  const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  const holder = document.querySelector(".cq-picked");
  const query = new URLSearchParams(window.location.search);
  const ids = [query.get("a"), query.get("b")];
  if (holder !== null && ids.every((id) => id !== null && ID.test(id)) && ids[0] !== ids[1]) {
    const pair = [...ids].sort().join("--");
    const own = Array.from(document.querySelectorAll(".md-typeset a[href]")).find((a) =>
      new URL(a.href).pathname.replace(/\/$/, "").endsWith(`/${pair}`),
    );
    if (own !== undefined) {
      window.location.replace(own.href);
    } else {
      compose(holder, ids);
    }
  }

  function compose(into, picked) {
    const api = into.querySelector(".cq-picked__api").href;
    const fetched = picked.map((id) =>
      fetch(new URL(`validations/${id}.json`, api)).then((response) => {
        if (!response.ok) throw new Error(`no result ${id} on this site`);
        return response.json();
      }),
    );
    const heading = document.createElement("h2");
    heading.textContent = "The two results you picked";
    into.replaceChildren(heading);
    into.hidden = false;
    Promise.all(fetched)
      .then((documents) => into.appendChild(sideBySide(documents, api)))
      .catch((error) => {
        const said = document.createElement("p");
        said.textContent = `They cannot be shown: ${error.message}.`;
        into.appendChild(said);
      });
  }

  function sideBySide(documents, api) {
    const table = document.createElement("table");
    table.className = "cq-table cq-pair-picked";
    const head = table.createTHead().insertRow();
    head.appendChild(document.createElement("th")).textContent = "";
    for (const doc of documents) {
      const th = head.appendChild(document.createElement("th"));
      th.scope = "col";
      const link = th.appendChild(document.createElement("a"));
      link.href = new URL(`../../${doc.page}`, api).href;
      link.textContent = doc.title;
    }
    const yes = (d) => d.derived.evidence_answers.filter((a) => a.answer === "yes").length;
    const applicable = (d) =>
      d.derived.evidence_answers.filter((a) => a.answer !== "not-applicable").length;
    const lines = [
      // A title ends with the program's name and release ("...: MLPerf Training v5.1").
      ["Program", (d) => d.title.slice(d.title.lastIndexOf(": ") + 2)],
      ["Scale", (d) => d.derived.scale || "not stated"],
      ["Announced", (d) => d.record.announced || "undated"],
      ["Validity", (d) => d.derived.validity_status],
      ["Outcome", (d) => `${d.record.outcome.result} (${d.record.outcome.grade})`],
      ["Evidence answered yes", (d) => `${yes(d)} of ${applicable(d)}`],
    ];
    // Each workload's figures, every one of them (a result may have several systems), where
    // both results measured it by the same metric.
    const workloads = (d) => {
      const found = new Map();
      for (const m of d.record.measurements) {
        const key = `${m.workload} (${m.metric}, ${m.unit})`;
        found.set(key, [...(found.get(key) || []), m]);
      }
      return found;
    };
    const [first, second] = documents.map(workloads);
    for (const key of first.keys()) {
      if (!second.has(key)) continue;
      lines.push([key, (d) => workloads(d).get(key).map((m) => {
        const system = m.system ? ` (${m.system})` : "";
        return `${Number(m.value.toFixed(2))} ${m.unit}${system}`;
      }).join("; ")]);
    }
    const body = table.createTBody();
    for (const [name, cell] of lines) {
      const row = body.insertRow();
      const th = row.appendChild(document.createElement("th"));
      th.scope = "row";
      th.textContent = name;
      for (const doc of documents) row.insertCell().textContent = cell(doc);
    }
    return table;
  }
})();
