/**
 * The "lines" format against `@knowing/wire`'s formatter conformance kit: the contract every
 * custom format should meet (deterministic, text as declared, hostile names, costs ≥ 1, the
 * pack left alone). No decoder: the format replaces whitespace inside fields, so names with
 * spaces or newlines do not read back exactly.
 */
import { testFormatter } from '@knowing/wire/testing';
import { linesFormat } from '../src/lines-format.js';

testFormatter(linesFormat);
