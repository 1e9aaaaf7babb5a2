import { useState } from 'react';
import { Create, SimpleForm, TextInput, email, required, useSaveContext } from 'react-admin';
import { Alert, Button } from '@mui/material';
import { Link } from 'react-router-dom';
import { PageHeading } from '../layout/PageHeading';
import { type Duplicate, findDuplicate } from './duplicates';

interface NewPersonForm {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

/** The form's Email and Phone become the person's first ones; the server records createdVia Manually. */
function toPerson({ firstName, lastName, email: address, phone }: NewPersonForm) {
  return {
    firstName: firstName?.trim() || undefined,
    lastName: lastName?.trim() || undefined,
    emails: address?.trim() ? [{ value: address.trim() }] : undefined,
    phones: phone?.trim() ? [{ value: phone.trim() }] : undefined,
  };
}

/** Checks the email and phone first: someone who has them is named, and nothing is made unless confirmed. */
function NewPersonFields() {
  const { save } = useSaveContext();
  const [pending, setPending] = useState<{ values: NewPersonForm; duplicate: Duplicate } | null>(
    null,
  );
  const submit = async (values: Record<string, unknown>) => {
    const form = values as NewPersonForm;
    const duplicate = await findDuplicate(form.email, form.phone);
    if (duplicate) return setPending({ values: form, duplicate });
    setPending(null);
    return save?.(values);
  };
  return (
    <SimpleForm onSubmit={submit}>
      <TextInput source="firstName" label="First name" validate={required()} />
      <TextInput source="lastName" label="Last name" />
      <TextInput source="email" label="Email" type="email" validate={email()} />
      <TextInput source="phone" label="Phone" type="tel" />
      {pending ? (
        <Alert
          severity="warning"
          role="alert"
          sx={{ mb: 2, width: '100%' }}
          action={
            <Button
              color="inherit"
              onClick={() => {
                const { values } = pending;
                setPending(null);
                save?.(values);
              }}
            >
              Create anyway
            </Button>
          }
        >
          {pending.duplicate.description} already has this {pending.duplicate.matchedBy}.{' '}
          {pending.duplicate.personId !== null ? (
            <Link to={`/people/${pending.duplicate.personId}`}>
              Open {pending.duplicate.description}
            </Link>
          ) : null}
        </Alert>
      ) : null}
    </SimpleForm>
  );
}

export function PersonCreate() {
  return (
    <>
      <PageHeading>New person</PageHeading>
      <Create title={false} transform={toPerson} redirect={(_resource, id) => `people/${id}`}>
        <NewPersonFields />
      </Create>
    </>
  );
}
