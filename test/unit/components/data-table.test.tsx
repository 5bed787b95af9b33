import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { countColumn, DataTable, NameCell, numberColumn, type Column } from "@/components/data-table";

interface Row {
  name: string;
  n: number;
  share: number | null;
}
const columns: Column<Row>[] = [
  { id: "name", header: "name", align: "text", cellClassName: "name", sort: { key: "name", first: "asc" }, cell: (r) => <NameCell href={`/x/${r.name}`} marks={<b>!</b>}>{r.name}</NameCell> },
  countColumn("n", "count", (r) => r.n, { title: "how many", headerClassName: "declined-text", sort: { key: "n" } }),
  numberColumn("share", "share", (r) => r.share, (v) => (v === null ? "—" : `${v * 100}%`)),
];
const rows: Row[] = [
  { name: "a", n: 1200, share: 0.5 },
  { name: "b", n: 0, share: null },
];
const noop = () => {};

describe("DataTable", () => {
  it("renders headers and cells from the columns, with row keys and data attributes", () => {
    const html = renderToStaticMarkup(<DataTable columns={columns} rows={rows} rowKey={(r) => r.name} rowAttributes={(r) => ({ "data-name": r.name })} testId="t" />);
    expect(html).toContain('<table class="data" data-testid="t">');
    expect(html).toContain('<th class="text" scope="col">name</th><th class="declined-text" title="how many" scope="col">count</th><th scope="col">share</th>');
    expect(html).toContain('<tr data-name="a"><td class="name"><a href="/x/a">a</a><span class="cell-marks"><b>!</b></span></td><td>1,200</td><td>50%</td></tr>');
    expect(html).toContain("<td>—</td>");
  });

  it("makes sortable headers buttons with aria-sort on the current column", () => {
    const html = renderToStaticMarkup(<DataTable columns={columns} rows={rows} rowKey={(r) => r.name} sort={{ sort: "n", dir: "asc", onSort: noop }} />);
    expect(html).toContain('<th class="text" scope="col"><button type="button">name</button></th>');
    expect(html).toContain('<th aria-sort="ascending" title="how many" class="declined-text" scope="col"><button type="button">count</button></th>');
  });

  it("shows the placeholder before the first answer and the empty note after an empty one", () => {
    const loading = renderToStaticMarkup(<DataTable columns={columns} rows={undefined} rowKey={(r) => r.name} placeholder="Loading…" empty="None." />);
    expect(loading).toContain('<tbody><tr><td colSpan="3" class="empty-state">Loading…</td></tr></tbody>');
    const empty = renderToStaticMarkup(<DataTable columns={columns} rows={[]} rowKey={(r) => r.name} placeholder="Loading…" empty="None." />);
    expect(empty).toContain('<td colSpan="3" class="empty-state">None.</td>');
    expect(renderToStaticMarkup(<DataTable columns={columns} rows={undefined} rowKey={(r) => r.name} empty="None." />)).toContain("<tbody></tbody>");
  });

  it("maps alignment to the classes of another sheet and renders row headers", () => {
    const cols: Column<Row>[] = [
      { id: "name", header: "Name", rowHeader: true, cell: (r) => r.name },
      { id: "n", header: "N", align: "num", cellClassName: (r) => (r.n === 0 ? "zero" : undefined), cellTitle: (r) => `${r.n}`, cell: (r) => r.n },
    ];
    const html = renderToStaticMarkup(<DataTable columns={cols} rows={rows} rowKey={(r) => r.name} className="runs" align={{ num: "num" }} busy={false} />);
    expect(html).toContain('<table class="runs" aria-busy="false">');
    expect(html).toContain('<th class="num" scope="col">N</th>');
    expect(html).toContain('<tr><th scope="row">a</th><td class="num" title="1200">1200</td></tr><tr><th scope="row">b</th><td class="zero" title="0">0</td></tr>');
  });
});
