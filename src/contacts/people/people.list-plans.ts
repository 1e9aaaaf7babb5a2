/**
 * How GET /v1/people reads a page: the named plans, and the one choice among them. Each plan says
 * where the page's rows start (the people table in the sort's order, the text index's matches in
 * id order, or a tag's taggings in id order) and whether a tag, being smaller, is read before the
 * text search (its people then tested against the text). people.list.ts builds the plan chosen.
 */
export const PLANS = {
  /** people in the sort's order, each tested against the filters */
  walk: { rowsFrom: 'people', tagFirst: false },
  /** a page by id from the text index's matches (SQLite), the other filters tested */
  textIndex: { rowsFrom: 'text', tagFirst: false },
  /** a page by id from one tag's taggings, the other filters tested */
  tagIndex: { rowsFrom: 'tag', tagFirst: false },
  /** people in the sort's order; counted from the tag, smaller than the text's matches */
  walkTagFirst: { rowsFrom: 'people', tagFirst: true },
  /** a page by id from the tag's taggings, smaller than the text's matches, tested against them */
  tagThenText: { rowsFrom: 'tag', tagFirst: true },
} as const;

export type PlanName = keyof typeof PLANS;
export type Plan = (typeof PLANS)[PlanName] & { name: PlanName };

/** What the data says before a page is read (people.search.ts, people.list-terms.ts). */
export interface PlanFacts {
  /** the page is sorted by id */
  pageById: boolean;
  /** a text search: how many people its index matches (null: not counted), and whether a page by id can start from its matches */
  text: { size: number | null; pagesFrom: boolean } | null;
  /** a tag filter: how many taggings it has (counted up to a limit), and whether a page by id can start from them (one tag) */
  tag: { size: number; pagesFrom: boolean } | null;
}

/** Pure: the plan for these facts. */
export function choosePlan({ pageById, text, tag }: PlanFacts): Plan {
  const tagFirst = text?.size != null && tag !== null && tag.size < text.size;
  const name: PlanName =
    pageById && text?.pagesFrom && !tagFirst
      ? 'textIndex'
      : pageById && tag?.pagesFrom
        ? tagFirst
          ? 'tagThenText'
          : 'tagIndex'
        : tagFirst
          ? 'walkTagFirst'
          : 'walk';
  return { name, ...PLANS[name] };
}
