import type Database from 'better-sqlite3';

/**
 * FTS5's "averages" record (row 1 of `<table>_data`) holds the row count and each column's token
 * total that bm25() uses for idf and for the average document length. A contentless-delete
 * table cannot take a deleted row's tokens out of it (it no longer has the text), and FTS5
 * does not decrement the count either, so after files are rewritten the record counts every row
 * ever written. The same tree then scores differently depending on how its index got there: the
 * average lengths bm25() normalises by follow every document the index ever held.
 *
 * The store keeps the record true itself. Before a row leaves one of these tables its per-column
 * lengths (`<table>_docsize.sz`) are copied to `temp.fts_removed`; after the write commits they
 * are subtracted from the record. A record that still disagrees with the live row count (an
 * index written before this existed, or a process killed between the two commits) is summed
 * again from `<table>_docsize`, which FTS5 keeps exact.
 */
export const FTS_TABLES = ['nodes_fts', 'lexical_fts'] as const;
export type FtsTable = (typeof FTS_TABLES)[number];

/** The scratch table of the lengths of rows deleted since the last settle (see {@link rememberRemoved}). */
export const FTS_REMOVED_SCHEMA = `CREATE TEMP TABLE IF NOT EXISTS fts_removed (fts TEXT NOT NULL, sz BLOB NOT NULL);`;

/** SQL that records the lengths of row `seqExpr` of `table` before it is deleted. */
export function rememberRemoved(table: FtsTable, seqExpr: string): string {
  return `INSERT INTO temp.fts_removed (fts, sz) SELECT '${table}', sz FROM main.${table}_docsize WHERE id = ${seqExpr}`;
}

/** SQLite's varints (the format of both records): 7 bits a byte, high bit set while more follow, a 9th byte whole. */
export function readVarints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let value = 0;
    for (let k = 0; ; k++) {
      if (i >= bytes.length) return out;
      const byte = bytes[i++]!;
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    out.push(value);
  }
  return out;
}

/** The inverse of readVarints for values below 2^53 (token totals are far below). */
export function writeVarints(values: readonly number[]): Uint8Array {
  const out: number[] = [];
  for (const value of values) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a varint: ${value}`);
    const groups: number[] = [];
    let rest = value;
    do {
      groups.unshift(rest % 128);
      rest = Math.floor(rest / 128);
    } while (rest > 0);
    // Below 2^53 a value needs at most 8 groups, so the 9-byte form never arises.
    for (let g = 0; g < groups.length; g++) out.push(g < groups.length - 1 ? groups[g]! | 0x80 : groups[g]!);
  }
  return Uint8Array.from(out);
}

/** Adds the per-column lengths of one docsize blob into `totals`. */
function addSizes(totals: number[], sz: Uint8Array): void {
  const sizes = readVarints(sz);
  for (let c = 0; c < sizes.length; c++) totals[c] = (totals[c] ?? 0) + sizes[c]!;
}

export interface FtsTotalsKeeper {
  /**
   * Subtracts what the committed writes removed, and sums a table again whose record still
   * disagrees with its live row count. Call between transactions.
   */
  settle(): void;
}

export function createFtsTotalsKeeper(db: Database.Database): FtsTotalsKeeper {
  const removed = db.prepare('SELECT fts, sz FROM temp.fts_removed').raw();
  const clear = db.prepare('DELETE FROM temp.fts_removed');
  const statements = new Map(
    FTS_TABLES.map((table) => [
      table,
      {
        record: db.prepare(`SELECT block FROM main.${table}_data WHERE id = 1`).pluck(),
        liveRows: db.prepare(`SELECT count(*) FROM main.${table}_docsize`).pluck(),
        sizes: db.prepare(`SELECT sz FROM main.${table}_docsize`).pluck(),
      },
    ]),
  );

  /** Writes FTS5's shadow table, which the connection's defensive mode otherwise refuses. */
  const writeRecords = (records: ReadonlyMap<FtsTable, readonly number[]>): void => {
    if (records.size === 0) return;
    db.unsafeMode(true);
    try {
      db.transaction(() => {
        // Prepared here: defensive mode refuses even to compile the statement.
        for (const [table, values] of records) db.prepare(`UPDATE main.${table}_data SET block = ? WHERE id = 1`).run(writeVarints(values));
      }).immediate();
    } finally {
      db.unsafeMode(false);
    }
  };

  const sumAll = (table: FtsTable, columns: number): number[] => {
    const st = statements.get(table)!;
    const totals = new Array<number>(columns).fill(0);
    let rows = 0;
    for (const sz of st.sizes.all() as Uint8Array[]) {
      addSizes(totals, sz);
      rows++;
    }
    return [rows, ...totals];
  };

  /** The table's record once `subtract` is taken out, or undefined when it needs no change. */
  const corrected = (table: FtsTable, subtract: { rows: number; sizes: number[] } | undefined): number[] | undefined => {
    const st = statements.get(table)!;
    const block = st.record.get() as Uint8Array | undefined;
    if (block === undefined) return undefined;
    const record = readVarints(block);
    if (record.length < 2) return undefined;
    const next = [...record];
    if (subtract !== undefined) {
      next[0]! -= subtract.rows;
      for (let c = 1; c < next.length; c++) next[c]! -= subtract.sizes[c - 1] ?? 0;
    }
    if (next[0] !== Number(st.liveRows.get()) || next.some((v) => v < 0)) return sumAll(table, record.length - 1);
    return subtract === undefined ? undefined : next;
  };

  return {
    settle() {
      // FTS5 writes its own cached totals when a transaction that touched the table commits,
      // over anything written inside it: the record can only be set between transactions.
      if (db.inTransaction) return;
      const subtractions = new Map<FtsTable, { rows: number; sizes: number[] }>();
      for (const [fts, sz] of removed.all() as [FtsTable, Uint8Array][]) {
        let entry = subtractions.get(fts);
        if (!entry) subtractions.set(fts, (entry = { rows: 0, sizes: [] }));
        entry.rows++;
        addSizes(entry.sizes, sz);
      }
      const records = new Map<FtsTable, readonly number[]>();
      for (const table of FTS_TABLES) {
        const next = corrected(table, subtractions.get(table));
        if (next !== undefined) records.set(table, next);
      }
      writeRecords(records);
      if (subtractions.size > 0) clear.run();
    },
  };
}
