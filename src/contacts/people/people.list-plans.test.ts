import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { choosePlan, type PlanFacts, type PlanName } from './people.list-plans.js';

const text = (size: number | null, pagesFrom = true) => ({ size, pagesFrom });
const tag = (size: number, pagesFrom = true) => ({ size, pagesFrom });

// Each row: what the data says, and the plan that reads the page.
const TABLE: [string, PlanFacts, PlanName][] = [
  ['no text, no tag', { pageById: true, text: null, tag: null }, 'walk'],
  ['a sort other than id', { pageById: false, text: text(50), tag: tag(10) }, 'walkTagFirst'],
  ['text alone, by id', { pageById: true, text: text(50), tag: null }, 'textIndex'],
  ['text alone, sorted by name', { pageById: false, text: text(50), tag: null }, 'walk'],
  ['text its index cannot page', { pageById: true, text: text(50, false), tag: null }, 'walk'],
  ['text not counted, a tag', { pageById: true, text: text(null), tag: tag(10) }, 'textIndex'],
  ['tag alone, by id', { pageById: true, text: null, tag: tag(10) }, 'tagIndex'],
  ['several tags (no tag index page)', { pageById: true, text: null, tag: tag(10, false) }, 'walk'],
  ['text smaller than the tag', { pageById: true, text: text(5), tag: tag(10) }, 'textIndex'],
  ['text as large as the tag', { pageById: true, text: text(10), tag: tag(10) }, 'textIndex'],
  ['tag smaller than the text', { pageById: true, text: text(50), tag: tag(10) }, 'tagThenText'],
  [
    'tag smaller, several tags',
    { pageById: true, text: text(50), tag: tag(10, false) },
    'walkTagFirst',
  ],
  [
    'tag smaller, text index cannot page',
    { pageById: true, text: text(50, false), tag: tag(10) },
    'tagThenText',
  ],
];

describe('the people list chooses its plan from the data', () => {
  for (const [what, facts, plan] of TABLE)
    it(`${what}: ${plan}`, () => assert.equal(choosePlan(facts).name, plan));

  it('a plan says where its rows start and whether the tag is read first', () => {
    assert.deepEqual(choosePlan({ pageById: true, text: text(50), tag: tag(10) }), {
      name: 'tagThenText',
      rowsFrom: 'tag',
      tagFirst: true,
    });
  });
});
