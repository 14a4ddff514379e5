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

  const MOST = 12; // more results than a screen can read side by side

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

  // A choice of the column's values: a select of one value, or (multiple) a box per value, so
  // several are picked by plain clicks and the page shows which are.
  function choice(name, filter, index, rows, multiple) {
    const values = [...new Set(rows.map((row) => valueOf(row.cells[index])))];
    values.sort((a, b) => compare("text", a, b));
    if (multiple) return boxes(name, filter, index, values);
    const label = document.createElement("label");
    label.textContent = name;
    const select = document.createElement("select");
    select.name = `cq-${filter}`;
    select.add(new Option(`Every ${name.toLowerCase()}`, ""));
    for (const value of values) select.add(new Option(value, value));
    label.appendChild(select);
    const chosen = () => (select.value ? [select.value] : []);
    return {
      index,
      element: label,
      controls: [select],
      param: filter,
      values: chosen,
      set(values) {
        const value = values[0] || "";
        // A value the table does not hold (an old link) is kept, and matches no row.
        if (value && !Array.from(select.options).some((o) => o.value === value)) {
          select.add(new Option(value, value));
        }
        select.value = value;
      },
      test(value) {
        const wanted = chosen();
        return wanted.length === 0 || wanted.includes(value);
      },
      bounded: () => false,
    };
  }

  function boxes(name, filter, index, values) {
    const group = document.createElement("fieldset");
    group.className = "cq-boxes";
    const legend = document.createElement("legend");
    legend.textContent = `${name} (any of those ticked; none ticked: every one)`;
    group.appendChild(legend);
    const inputs = [];
    function add(value) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.name = `cq-${filter}`;
      input.value = value;
      label.append(input, ` ${value}`);
      group.appendChild(label);
      inputs.push(input);
      return input;
    }
    values.forEach(add);
    const chosen = () => inputs.filter((input) => input.checked).map((input) => input.value);
    return {
      index,
      element: group,
      controls: inputs,
      param: filter,
      values: chosen,
      set(wanted) {
        for (const value of wanted) {
          // A value the table does not hold (an old link) is kept, and matches no row.
          if (value && !inputs.some((input) => input.value === value)) add(value);
        }
        for (const input of inputs) input.checked = wanted.includes(input.value);
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

  // A box on each row: results picked, two or more, open side by side (`pairs` is the
  // side-by-side index's address: two open the pair's own page where the site has one, more a
  // view composed of their API documents). The bar stays at the foot of the screen, in reach
  // of the boxes, while the table is in view. `restore` are the ids an address picked.
  function picker(rows, pairs, restore, changed) {
    const bar = document.createElement("p");
    bar.className = "cq-picker";
    const words = document.createElement("span");
    const open = document.createElement("a");
    // Two providers set side by side are their results the filters leave: one press picks
    // them all, rather than a box each (at most MOST, in the table's order).
    const all = document.createElement("button");
    all.type = "button";
    all.className = "cq-copy";
    all.textContent = `Pick the results shown (up to ${MOST})`;
    bar.append(words, " ", open, " ", all);
    const picked = [];
    let left = 0; // results shown that the last press could not pick, past MOST
    all.addEventListener("click", () => {
      const sorted = rows.length ? Array.from(rows[0].parentNode.rows) : [];
      left = 0;
      for (const row of sorted) {
        const found = byId.get(row.getAttribute("data-cq-id"));
        if (row.hidden || found === undefined || found.box.checked) continue;
        if (picked.length >= MOST) {
          left += 1;
          continue;
        }
        found.box.checked = true;
        picked.push(found);
      }
      show();
      changed();
    });
    function show() {
      const fits = picked.length >= 2 && picked.length <= MOST;
      open.hidden = !fits;
      words.textContent =
        picked.length < 2
          ? `Pick two results or more to set them side by side (${picked.length} picked).`
          : fits
            ? `${picked.length} picked.` +
              (left ? ` ${left} more shown not picked: at most ${MOST} can be set side by side.` : "")
            : `${picked.length} picked: at most ${MOST} can be set side by side.`;
      if (fits) {
        const address = new URL(pairs);
        const params = new URLSearchParams();
        if (picked.length === 2) {
          params.set("a", picked[0].id);
          params.set("b", picked[1].id);
        } else {
          for (const p of picked) params.append("r", p.id);
        }
        address.search = params.toString();
        open.href = address.href;
        open.textContent =
          picked.length === 2
            ? `Open ${picked[0].label} and ${picked[1].label} side by side`
            : `Open the ${picked.length} picked side by side`;
      }
    }
    const byId = new Map();
    for (const row of rows) {
      const id = row.getAttribute("data-cq-id");
      if (id === null) continue;
      const label = row.cells[0].textContent.trim() + ", " + row.cells[1].textContent.trim();
      const box = document.createElement("input");
      box.type = "checkbox";
      box.className = "cq-pick";
      box.setAttribute("aria-label", `Pick ${label}`);
      box.addEventListener("change", () => {
        left = 0; // a box ticked by hand: the press's count no longer holds
        const at = picked.findIndex((p) => p.id === id);
        if (box.checked && at < 0) picked.push({ id, label, box });
        if (!box.checked && at >= 0) picked.splice(at, 1);
        show();
        changed();
      });
      byId.set(id, { id, label, box });
      row.cells[0].prepend(box, " ");
    }
    for (const id of restore) {
      const found = byId.get(id);
      if (found !== undefined && !found.box.checked) {
        found.box.checked = true;
        picked.push(found);
      }
    }
    show();
    return { bar, ids: () => picked.map((p) => p.id) };
  }

  // A control that copies the address of the view shown: its filters, sort and picks.
  function copier() {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cq-copy";
    button.textContent = "Copy the link to this view";
    const said = document.createElement("span");
    said.className = "cq-note";
    said.setAttribute("aria-live", "polite"); // not a role=status: the table's count is that
    button.addEventListener("click", () => {
      const address = window.location.href;
      const done = () => {
        said.textContent = "Link copied.";
      };
      const shown = () => {
        said.textContent = ` Copy it from here: ${address}`;
      };
      if (navigator.clipboard) navigator.clipboard.writeText(address).then(done, shown);
      else shown();
    });
    const holder = document.createElement("span");
    holder.className = "cq-copier";
    holder.append(button, said);
    return holder;
  }

  function setUp(table) {
    const head = table.tHead.rows[0];
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const filters = [];
    const noun = table.getAttribute("data-cq-noun") || "rows";
    const useAddress = table.hasAttribute("data-cq-url");
    // Each row's cell values, read once: a filter change compares, and reads no cell again.
    const known = new Map(rows.map((row) => [row, Array.from(row.cells, valueOf)]));
    // The column sorted by, as the address names it ({key, ascending}), and the picker.
    let sorted = null;
    let picks = null;
    const sorters = new Map();
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

    // The filters as address parameters, in the columns' order; then the sort and the picks.
    function parameters(filtersOnly) {
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
      if (filtersOnly) return params;
      if (sorted !== null) params.set("sort", (sorted.ascending ? "" : "-") + sorted.key);
      if (picks !== null) for (const id of picks.ids()) params.append("pick", id);
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
        const values = known.get(row);
        const keep = filters.every((f) => f.test(values[f.index]));
        // Only a row that changes is touched: at a thousand rows, each write costs a layout.
        if (row.hidden === keep) row.hidden = !keep;
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
      const query = parameters(false).toString();
      reset.hidden = parameters(true).toString() === "";
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
        // On the control's element, not each input: a box an old link adds is heard too.
        made.element.addEventListener("change", apply);
        made.element.addEventListener("input", apply);
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
      const key = filter || th.getAttribute("data-cq-param") || `col${index}`;
      function sortBy(ascending) {
        for (const other of head.cells) other.removeAttribute("aria-sort");
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        sorted = { key, ascending };
        const keyed = rows.map((row, position) => [valueOf(row.cells[index]), position, row]);
        keyed.sort((x, y) => {
          if (x[0] === "" || y[0] === "") return compare(sort, x[0], y[0]) || x[1] - y[1];
          const order = compare(sort, x[0], y[0]);
          return (ascending ? order : -order) || x[1] - y[1];
        });
        for (const [, , row] of keyed) body.appendChild(row);
      }
      sorters.set(key, sortBy);
      button.addEventListener("click", () => {
        sortBy(th.getAttribute("aria-sort") !== "ascending");
        apply();
      });
    });
    reset.addEventListener("click", (event) => {
      event.preventDefault();
      for (const f of filters) f.set([]);
      apply();
    });
    controls.appendChild(status);
    controls.appendChild(reset);
    if (useAddress) controls.appendChild(copier());
    const params = new URLSearchParams(useAddress ? window.location.search : "");
    for (const f of filters) {
      f.set(f.param !== null ? params.getAll(f.param) : f.params.map((p) => params.get(p)));
    }
    const wanted = params.get("sort") || "";
    const sortBy = sorters.get(wanted.replace(/^-/, ""));
    if (sortBy !== undefined) sortBy(!wanted.startsWith("-"));
    const holder = table.closest(".cq-scroll") || table;
    holder.parentNode.insertBefore(controls, holder);
    const target = document.getElementById(table.getAttribute("data-cq-pick") || "");
    if (target !== null) {
      picks = picker(rows, target.href, params.getAll("pick"), apply);
      holder.parentNode.insertBefore(picks.bar, holder.nextSibling);
    }
    apply();
  }

  // On a phone, a result's, a provider's or a workload's wide table reads as cards, a row each,
  // every cell under its column's name (the stylesheet's table.cq-cards[data-cq-labelled]). The
  // names are the header's, copied onto the cells here, so the page's HTML holds each once;
  // without this script the table scrolls in its box, as every wide table does. The table's
  // roles are set too: a table shown as blocks is no longer one to every screen reader.
  function labelCards(table) {
    const head = table.tHead && table.tHead.rows[0];
    if (!head || !table.tBodies.length) return;
    const names = [...head.cells].map((cell) => cell.textContent.trim());
    table.setAttribute("role", "table");
    // Its caption keeps its role too: a link in it would be a child a table may not have.
    if (table.caption) table.caption.setAttribute("role", "caption");
    for (const part of [table.tHead, ...table.tBodies]) part.setAttribute("role", "rowgroup");
    for (const cell of head.cells) cell.setAttribute("role", "columnheader");
    head.setAttribute("role", "row");
    for (const row of table.tBodies[0].rows) {
      row.setAttribute("role", "row");
      [...row.cells].forEach((cell, i) => {
        cell.setAttribute("role", cell.tagName === "TH" ? "rowheader" : "cell");
        if (names[i] && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", names[i]);
      });
    }
    table.setAttribute("data-cq-labelled", "");
  }

  document.querySelectorAll("table.cq-cards").forEach(labelCards);
  document.querySelectorAll("table[data-cq-table]").forEach(setUp);

  // The side-by-side view of the results picked on the compare page: two (?a=ID&b=ID) open the
  // pair's own page where the site has one; any other pick, or more (?r=ID&r=ID&r=ID), is
  // composed here from the results' API documents. Every value is set as text, never as markup.
  const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  const holder = document.querySelector(".cq-picked");
  const query = new URLSearchParams(window.location.search);
  const two = [query.get("a"), query.get("b")].filter((id) => id !== null);
  const ids = query.getAll("r").length ? query.getAll("r") : two;
  const fine =
    ids.length >= 2 &&
    ids.length <= MOST &&
    ids.every((id) => ID.test(id)) &&
    new Set(ids).size === ids.length;
  if (holder !== null && fine) {
    const pair = [...ids].sort().join("--");
    const own =
      ids.length === 2
        ? Array.from(document.querySelectorAll(".md-typeset a[href]")).find((a) =>
            new URL(a.href).pathname.replace(/\/$/, "").endsWith(`/${pair}`),
          )
        : undefined;
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
    heading.textContent = `The ${picked.length === 2 ? "two" : picked.length} results you picked`;
    into.replaceChildren(heading);
    into.hidden = false;
    Promise.all(fetched)
      .then((documents) => {
        const frame = document.createElement("div");
        frame.className = "cq-scroll";
        frame.appendChild(sideBySide(documents, api));
        into.appendChild(frame);
      })
      .catch((error) => {
        const said = document.createElement("p");
        said.textContent = `They cannot be shown: ${error.message}.`;
        into.appendChild(said);
      });
  }

  // What a figure is, as the figures pages set it beside another: what ran (an open-division
  // stand-in model named first), its scenario and accuracy target, and its metric and unit.
  function measuredAs(m) {
    const ran = m.model_run ? `${m.model_run}, run in ${m.workload}'s place` : m.workload;
    const under = [m.scenario, m.accuracy_target].filter((part) => part).join(", ");
    return `${ran}${under ? `, ${under}` : ""} (${m.metric}, ${m.unit})`;
  }

  function sideBySide(documents, api) {
    const table = document.createElement("table");
    // On a phone it reads as cards, as the results' own tables do: a line each (scale, a
    // figure), every result's value under its title, so no result is off the screen's edge.
    table.className = "cq-table cq-pair-picked cq-cards";
    const head = table.createTHead().insertRow();
    head.appendChild(document.createElement("th")).textContent = "";
    for (const doc of documents) {
      const th = head.appendChild(document.createElement("th"));
      th.scope = "col";
      const link = th.appendChild(document.createElement("a"));
      link.href = new URL(`../../${doc.page}`, api).href;
      link.textContent = doc.title;
    }
    const lines = [
      // A title ends with the program's name and release ("...: MLPerf Training v5.1").
      ["Program", (d) => d.title.slice(d.title.lastIndexOf(": ") + 2)],
      ["Scale", (d) => d.derived.scale || "not stated"],
      ["Announced", (d) => d.record.announced || "undated"],
      // As the result's page words it (page_words.validity): never the raw status.
      ["Validity", (d) => d.derived.validity_words],
      ["Outcome", (d) => `${d.record.outcome.result} (${d.record.outcome.grade})`],
      // The compare table's words for it, as the Python derived them: a count of "yes" answers
      // alone read a 512-GPU pass with nothing else published level with a silent record.
      ["Evidence", (d) => d.derived.evidence_words],
    ];
    // Each figure, by what it is (`measuredAs`), of any of the results: every one of a result's
    // figures of it (a result may have several systems). Those two or more results measured
    // come first; a figure only one measured is shown too, beside "not measured" for the rest,
    // or a pick of two clouds on different chips would show none of their figures.
    const figures = (d) => {
      const found = new Map();
      for (const m of d.record.measurements) {
        const key = measuredAs(m);
        found.set(key, [...(found.get(key) || []), m]);
      }
      return found;
    };
    const each = documents.map(figures);
    const sharedBy = (key) => each.filter((found) => found.has(key)).length;
    const keys = [...new Set(each.flatMap((found) => [...found.keys()]))].sort(
      (x, y) => (sharedBy(y) > 1) - (sharedBy(x) > 1) || (x < y ? -1 : x > y ? 1 : 0),
    );
    for (const key of keys) {
      lines.push([key, (d, i) => (each[i].get(key) || []).map((m) => {
        const system = m.system ? ` (${m.system})` : "";
        // As the pages write a figure (english.number, provenance.value_words): minutes to
        // two decimals, anything else with every digit published, thousands grouped.
        const digits = m.unit === "min"
          ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
          : { maximumFractionDigits: 20 };
        return `${m.value.toLocaleString("en-US", digits)} ${m.unit}${system}`;
      }).join("; ") || "not measured"]);
    }
    const body = table.createTBody();
    for (const [name, cell] of lines) {
      const row = body.insertRow();
      const th = row.appendChild(document.createElement("th"));
      th.scope = "row";
      th.textContent = name;
      documents.forEach((doc, i) => {
        row.insertCell().textContent = cell(doc, i);
      });
    }
    labelCards(table);
    return table;
  }
})();
