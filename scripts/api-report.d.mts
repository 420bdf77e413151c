/** Types of scripts/api-report.mjs, for the tests that import it. */

/** One entry point of a package: its exports by name, with their kind (`function`, `const`, `interface`, …). */
export interface ApiEntryPoint {
  readonly exportCount: number;
  readonly exports: Readonly<Record<string, string>>;
}

/** The snapshot of one package, as written to api/<name>.api.json. */
export interface ApiReport {
  readonly $comment: string;
  readonly package: string;
  readonly exportCount: number;
  /** By subpath (`.`, `./testing`, …), sorted. */
  readonly entryPoints: Readonly<Record<string, ApiEntryPoint>>;
}

/** Every report, and what stopped an entry point from being read. */
export interface ApiCollection {
  readonly reports: readonly ApiReport[];
  readonly problems: readonly string[];
}

export interface ApiPackage {
  readonly name: string;
  readonly dir: string;
  readonly entries: readonly { readonly subpath: string; readonly file: string }[];
  readonly problems: readonly string[];
}

export const WORKSPACE_ROOT: string;
export const SOURCE_CONDITION: string;
export const API_DIR: string;
export function snapshotName(packageName: string): string;
export function findPackages(root?: string): ApiPackage[];
export function collectApi(root?: string): ApiCollection;
export function renderReport(report: ApiReport): string;
export function diffApi(root?: string, current?: ApiCollection): string[];
export function apiCheckMessage(differences: readonly string[]): string | null;
export function updateApi(root?: string, current?: ApiCollection): ApiCollection;
export function countsTable(reports: readonly ApiReport[]): string[];
