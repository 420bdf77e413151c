/**
 * equiv_gin.ts against `@knowing/equivalence`'s vocabulary conformance kit: what the validator
 * checks at load time, plus the rules of docs/plugins.md a vocabulary should follow (phrases
 * the matcher finds, none made only of stop words, none shared by two classes) and no clash
 * with the built-in vocabulary.
 */
import { testVocabulary } from '@knowing/equivalence/testing';
import gin from '../src/equiv_gin.js';

testVocabulary(gin);
