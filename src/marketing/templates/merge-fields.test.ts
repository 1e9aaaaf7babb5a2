import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  contactAddress,
  inquiryAddress,
  type MergeData,
  MERGE_FIELDS,
  renderMergeFields,
} from './merge-fields.js';

const data: MergeData = {
  agent: {
    name: 'Alice Agent',
    firstName: 'Alice',
    lastName: 'Agent',
    email: 'alice@team.test',
    phone: '555-0100',
  },
  contact: {
    name: 'Carl Contact',
    firstName: 'Carl',
    lastName: 'Contact',
    emails: [{ value: 'carl@home.test' }, { value: 'carl@work.test' }],
    phones: [{ value: '(555) 0199' }, { value: '555-0200' }],
    addresses: [
      { street: '1 Main St', city: 'Springfield', state: 'IL', code: '62701', country: 'US' },
      { street: '2 Side St', city: 'Shelbyville', state: 'IL', code: '62565', country: 'US' },
    ],
    source: 'example.com',
  },
  inquiryStreet: '42 Ocean Dr',
};

describe('merge fields', () => {
  const expected: Record<string, string> = {
    agent_name: 'Alice Agent',
    agent_first_name: 'Alice',
    agent_last_name: 'Agent',
    agent_email: 'alice@team.test',
    agent_phone: '555-0100',
    contact_name: 'Carl Contact',
    contact_first_name: 'Carl',
    contact_last_name: 'Contact',
    contact_email: 'carl@home.test',
    contact_phone: '(555) 0199',
    contact_address: '1 Main St, Springfield 62701',
    contact_street: '1 Main St',
    contact_city: 'Springfield',
    contact_state: 'IL',
    contact_zipcode: '62701',
    contact_country: 'US',
    source_name: 'example.com',
    inquiry_address: '42 Ocean Dr',
    // Beyond the interface table: the real API's list of recipients' first names.
    contact_rels_first_name: 'Carl',
  };

  it('covers exactly the interface table and contact_rels_first_name', () => {
    assert.deepEqual(Object.keys(MERGE_FIELDS).sort(), Object.keys(expected).sort());
  });

  for (const [name, value] of Object.entries(expected)) {
    it(`renders %${name}%`, () => {
      assert.equal(renderMergeFields(`[%${name}%]`, data), `[${value}]`);
    });
  }

  it("lists the recipients' first names for %contact_rels_first_name%", () => {
    const names = (recipientFirstNames: string[]) =>
      renderMergeFields('%contact_rels_first_name%', { ...data, recipientFirstNames });
    assert.equal(names(['Bob']), 'Bob');
    assert.equal(names(['Bob', 'Alice']), 'Bob and Alice');
    assert.equal(names(['Bob', ' ', 'Alice', 'Carol']), 'Bob, Alice and Carol');
  });

  it('takes the first email, phone and address only', () => {
    assert.equal(
      renderMergeFields('%contact_email% %contact_phone% %contact_city%', data),
      'carl@home.test (555) 0199 Springfield',
    );
  });

  it('renders empty strings for missing values', () => {
    const empty: MergeData = {
      agent: null,
      contact: {
        name: '',
        firstName: '',
        lastName: '',
        emails: [],
        phones: [],
        addresses: [],
        source: '',
      },
      inquiryStreet: null,
    };
    assert.equal(
      renderMergeFields(
        'a%agent_name%b%contact_email%c%contact_address%d%contact_zipcode%e',
        empty,
      ),
      'abcde',
    );
  });

  it('leaves unknown tokens as they are', () => {
    assert.equal(
      renderMergeFields('Hi %nickname%, %agent_name% here', data),
      'Hi %nickname%, Alice Agent here',
    );
    assert.equal(renderMergeFields('100% sure, 50% off', data), '100% sure, 50% off');
    assert.equal(renderMergeFields('%unknown%agent_first_name%', data), '%unknownAlice');
    assert.equal(renderMergeFields('%%contact_first_name%%', data), '%Carl%');
    assert.equal(renderMergeFields('%contact-name%', data), '%contact-name%');
  });

  it('uses the fallback after | when the value is empty, and the value when there is one', () => {
    const noName: MergeData = { ...data, contact: { ...data.contact!, firstName: '  ' } };
    assert.equal(renderMergeFields('Hi %contact_first_name|there%!', noName), 'Hi there!');
    assert.equal(renderMergeFields('Hi %contact_first_name|there%!', data), 'Hi Carl!');
    assert.equal(
      renderMergeFields('Hi %Contact_First_Name|dear friend%', noName),
      'Hi dear friend',
    );
    assert.equal(renderMergeFields('[%contact_first_name|%]', noName), '[]');
    assert.equal(renderMergeFields('%agent_name|our team%', { ...data, agent: null }), 'our team');
    // A value is escaped for markup, a fallback is the template's own text.
    const amp = (v: string) => v.replace(/&/g, '&amp;');
    const ampName: MergeData = { ...data, contact: { ...data.contact!, firstName: 'A&B' } };
    assert.equal(
      renderMergeFields('%contact_first_name|you &amp; yours%', ampName, amp),
      'A&amp;B',
    );
    assert.equal(
      renderMergeFields('%contact_first_name|you &amp; yours%', noName, amp),
      'you &amp; yours',
    );
  });

  it('leaves unknown fields and tokens that do not fit as written', () => {
    const noName: MergeData = { ...data, contact: { ...data.contact!, firstName: '' } };
    assert.equal(renderMergeFields('Hi %nickname|there%', noName), 'Hi %nickname|there%');
    assert.equal(
      renderMergeFields('Hi %contact_first_name|there', noName),
      'Hi %contact_first_name|there',
    );
    assert.equal(renderMergeFields('Hi %contact_first_name|', noName), 'Hi %contact_first_name|');
    // A fallback stops at a line break or markup: the token is not one.
    assert.equal(
      renderMergeFields('%contact_first_name|a\nb%', noName),
      '%contact_first_name|a\nb%',
    );
    assert.equal(
      renderMergeFields('<p>%contact_first_name|</p><p>x%</p>', noName),
      '<p>%contact_first_name|</p><p>x%</p>',
    );
    const long = `%contact_first_name|${'x'.repeat(101)}%`;
    assert.equal(renderMergeFields(long, noName), long);
    assert.equal(
      renderMergeFields(`%contact_first_name|${'x'.repeat(100)}%`, noName),
      'x'.repeat(100),
    );
    // A | in the fallback is kept; the next % ends it.
    assert.equal(renderMergeFields('%contact_first_name|a|b%c%', noName), 'a|bc%');
  });

  it('matches token names case-insensitively and replaces every occurrence', () => {
    assert.equal(
      renderMergeFields('%CONTACT_FIRST_NAME% and %contact_first_name%', data),
      'Carl and Carl',
    );
  });

  it('does not re-expand values that contain tokens', () => {
    const sneaky: MergeData = {
      ...data,
      contact: { ...data.contact!, firstName: '%agent_email%' },
    };
    assert.equal(renderMergeFields('%contact_first_name%', sneaky), '%agent_email%');
  });

  it('builds %contact_address% from the parts that exist', () => {
    assert.equal(
      contactAddress({ street: '1 Main St', city: '', code: '62701' }),
      '1 Main St, 62701',
    );
    assert.equal(contactAddress({ street: '', city: 'Springfield', code: '' }), 'Springfield');
    assert.equal(contactAddress({ street: '1 Main St' }), '1 Main St');
    assert.equal(contactAddress(undefined), '');
  });
});

describe('%inquiry_address% rules', () => {
  it('rule 1: a non-empty property.street is the street', () => {
    assert.equal(inquiryAddress('42 Ocean Dr', 'example.com'), '42 Ocean Dr');
    assert.equal(renderMergeFields('%inquiry_address%', data), '42 Ocean Dr');
  });

  it('rule 2: empty street with a source gives "Your property inquiry from <source>"', () => {
    assert.equal(inquiryAddress('', 'example.com'), 'Your property inquiry from example.com');
    assert.equal(inquiryAddress('   ', 'example.com'), 'Your property inquiry from example.com');
    assert.equal(
      renderMergeFields('%inquiry_address%', { ...data, inquiryStreet: null }),
      'Your property inquiry from example.com',
    );
  });

  it('rule 3: both empty gives "Your property inquiry"', () => {
    assert.equal(inquiryAddress(null, ''), 'Your property inquiry');
    assert.equal(inquiryAddress(undefined, undefined), 'Your property inquiry');
    const noSource: MergeData = {
      ...data,
      contact: { ...data.contact!, source: '' },
      inquiryStreet: '',
    };
    assert.equal(renderMergeFields('%inquiry_address%', noSource), 'Your property inquiry');
  });
});
