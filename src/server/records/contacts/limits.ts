/** The longest value each contact field keeps (characters); a longer one is refused, never cut. */
export const FIELD_MAX = {
  firstName: 100,
  lastName: 100,
  fullName: 200,
  email: 254,
  title: 200,
  phone: 50,
  company: 200,
  website: 253,
  addressLine1: 200,
  addressLine2: 200,
  city: 100,
  region: 100,
  postalCode: 20,
  country: 100,
  crmId: 100,
} as const;

/** A contact keeps up to `count` custom fields (an import keeps as many columns: csv-headers.ts MAX_CUSTOM_COLUMNS). */
export const CUSTOM_FIELD_MAX = { count: 200, name: 64, value: 1000 } as const;
