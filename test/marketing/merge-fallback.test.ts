import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/server.js';

/** `%field|fallback%`: the text after | when the field is empty, wherever merge fields apply. */
describe('merge field fallbacks', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('fills empty fields with their fallback in templates, text templates and campaign previews', async () => {
    const { owner } = await server.newAccount();
    const key = owner.key;
    const created = await server.post(key, '/v1/people', {
      lastName: 'Nguyen',
      emails: [{ value: 'nguyen@example.com' }],
    });
    assert.equal(created.status, 201, created.text);
    const nameless = created.body as { id: number };
    const named = await server.newPerson(key, { firstName: 'Jacob', lastName: 'Nguyen' });
    const subject = 'New homes in %contact_city|your area% for %contact_first_name|you%';
    const body = '<p>Hi %contact_first_name|there%, %nickname|friend% %contact_first_name|oops</p>';

    const template = await server.post(key, '/v1/templates', { name: 'Homes', subject, body });
    assert.equal(template.status, 201, template.text);
    const merge = async (personId: number) => {
      const res = await server.post(key, '/v1/templates/merge', {
        templateId: template.body.id,
        mergePersonId: personId,
      });
      assert.equal(res.status, 200, res.text);
      return [res.body.subject, res.body.body];
    };
    // An unknown field and a token without its closing % stay as written.
    assert.deepEqual(await merge(nameless.id), [
      'New homes in your area for you',
      '<p>Hi there, %nickname|friend% %contact_first_name|oops</p>',
    ]);
    assert.deepEqual(await merge(named.id), [
      'New homes in your area for Jacob',
      '<p>Hi Jacob, %nickname|friend% %contact_first_name|oops</p>',
    ]);

    const text = await server.post(key, '/v1/textMessageTemplates', {
      name: 'Hello',
      message: 'Hi %contact_first_name|there%, %agent_first_name|your agent% here',
    });
    assert.equal(text.status, 201, text.text);
    const texted = await server.post(key, '/v1/textMessageTemplates/merge', {
      templateId: text.body.id,
      personId: nameless.id,
    });
    assert.equal(texted.status, 200, texted.text);
    assert.match(texted.body.mergedTemplate, /^Hi there, \S+ here$/);

    const campaign = await server.post(key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: 'homes-1',
      name: 'Homes',
      subject,
      bodyHtml: body,
    });
    assert.equal(campaign.status, 201, campaign.text);
    const preview = await server.get(
      key,
      `/v1/emCampaigns/${campaign.body.id}?mergePersonId=${nameless.id}`,
    );
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.subject, 'New homes in your area for you');
    assert.match(preview.body.bodyHtml, /^<p>Hi there, /);
  });
});
