import { Create, SimpleForm, TextInput, email, required } from 'react-admin';
import { PageHeading } from '../layout/PageHeading';

interface NewPersonForm {
  firstName?: string;
  lastName?: string;
  email?: string;
}

/** The form's Email becomes the person's first email; the server records createdVia Manually. */
function toPerson({ firstName, lastName, email: address }: NewPersonForm) {
  return {
    firstName: firstName?.trim() || undefined,
    lastName: lastName?.trim() || undefined,
    emails: address?.trim() ? [{ value: address.trim() }] : undefined,
  };
}

export function PersonCreate() {
  return (
    <>
      <PageHeading>New person</PageHeading>
      <Create title={false} transform={toPerson} redirect={(_resource, id) => `people/${id}`}>
        <SimpleForm>
          <TextInput source="firstName" label="First name" validate={required()} />
          <TextInput source="lastName" label="Last name" />
          <TextInput source="email" label="Email" type="email" validate={email()} />
        </SimpleForm>
      </Create>
    </>
  );
}
