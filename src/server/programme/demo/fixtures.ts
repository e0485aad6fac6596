/** Fictional companies and people with real-looking postal addresses, for the two demo workspaces. */

export interface DemoAccount {
  key: string;
  name: string;
  domain: string;
  address: { line1: string; city: string; region: string; postalCode: string; country: string };
}

export interface DemoPerson {
  first: string;
  last: string;
  title: string;
}

export const acmeAccounts: DemoAccount[] = [
  {
    key: "brightline",
    name: "Brightline Logistics",
    domain: "brightlinelogistics.com",
    address: { line1: "500 Boylston St", city: "Boston", region: "MA", postalCode: "02116", country: "US" },
  },
  {
    key: "harborview",
    name: "Harborview Health",
    domain: "harborviewhealth.com",
    address: { line1: "1201 3rd Ave", city: "Seattle", region: "WA", postalCode: "98101", country: "US" },
  },
  {
    key: "ironbridge",
    name: "Ironbridge Capital",
    domain: "ironbridgecap.com",
    address: { line1: "233 S Wacker Dr", city: "Chicago", region: "IL", postalCode: "60606", country: "US" },
  },
  {
    key: "lumenfield",
    name: "Lumenfield Energy",
    domain: "lumenfield.com",
    address: { line1: "600 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "US" },
  },
  {
    key: "northpeak",
    name: "Northpeak Software",
    domain: "northpeak.io",
    address: { line1: "1 Market St", city: "San Francisco", region: "CA", postalCode: "94105", country: "US" },
  },
  {
    key: "quarry",
    name: "Quarry & Vale",
    domain: "quarryvale.com",
    address: { line1: "1600 Stout St", city: "Denver", region: "CO", postalCode: "80202", country: "US" },
  },
  {
    key: "redfern",
    name: "Redfern Analytics",
    domain: "redfern-analytics.com",
    address: { line1: "50 Hudson Yards", city: "New York", region: "NY", postalCode: "10001", country: "US" },
  },
  {
    key: "saltmarsh",
    name: "Saltmarsh Foods",
    domain: "saltmarshfoods.com",
    address: { line1: "191 Peachtree St NE", city: "Atlanta", region: "GA", postalCode: "30303", country: "US" },
  },
  {
    key: "tidewater",
    name: "Tidewater Bank",
    domain: "tidewaterbank.com",
    address: { line1: "100 N Tryon St", city: "Charlotte", region: "NC", postalCode: "28202", country: "US" },
  },
  {
    key: "wexford",
    name: "Wexford Retail Group",
    domain: "wexfordretail.co.uk",
    address: { line1: "1 Canada Square", city: "London", region: "", postalCode: "E14 5AB", country: "GB" },
  },
  {
    key: "maplecrest",
    name: "Maplecrest Insurance",
    domain: "maplecrest.ca",
    address: { line1: "100 King St W", city: "Toronto", region: "ON", postalCode: "M5X 1A9", country: "CA" },
  },
  {
    key: "kestrel",
    name: "Kestrel Werke",
    domain: "kestrel-werke.de",
    address: { line1: "Friedrichstraße 68", city: "Berlin", region: "", postalCode: "10117", country: "DE" },
  },
];

export const globexAccounts: DemoAccount[] = [
  {
    key: "alderwood",
    name: "Alderwood Partners",
    domain: "alderwoodpartners.com",
    address: { line1: "1000 Walnut St", city: "Kansas City", region: "MO", postalCode: "64106", country: "US" },
  },
  {
    key: "bluestem",
    name: "Bluestem Media",
    domain: "bluestemmedia.com",
    address: { line1: "350 N Orleans St", city: "Chicago", region: "IL", postalCode: "60654", country: "US" },
  },
  {
    key: "cobalt",
    name: "Cobalt Robotics Supply",
    domain: "cobaltsupply.com",
    address: { line1: "2001 Ross Ave", city: "Dallas", region: "TX", postalCode: "75201", country: "US" },
  },
  {
    key: "driftwood",
    name: "Driftwood Hotels",
    domain: "driftwoodhotels.com",
    address: { line1: "1 S Biscayne Blvd", city: "Miami", region: "FL", postalCode: "33131", country: "US" },
  },
  {
    key: "evergreen",
    name: "Evergreen Dental Group",
    domain: "evergreendental.com",
    address: { line1: "111 SW 5th Ave", city: "Portland", region: "OR", postalCode: "97204", country: "US" },
  },
  {
    key: "foxglove",
    name: "Foxglove Pharma",
    domain: "foxglovepharma.com",
    address: { line1: "1 Main St", city: "Cambridge", region: "MA", postalCode: "02142", country: "US" },
  },
  {
    key: "granite",
    name: "Granite State Mutual",
    domain: "granitemutual.com",
    address: { line1: "900 Elm St", city: "Manchester", region: "NH", postalCode: "03101", country: "US" },
  },
  {
    key: "hollis",
    name: "Hollis & Crane",
    domain: "holliscrane.com",
    address: { line1: "1735 Market St", city: "Philadelphia", region: "PA", postalCode: "19103", country: "US" },
  },
  {
    key: "juniper",
    name: "Juniper Freight",
    domain: "juniperfreight.com",
    address: { line1: "40 E Broadway", city: "Salt Lake City", region: "UT", postalCode: "84111", country: "US" },
  },
  {
    key: "lakeshore",
    name: "Lakeshore Credit Union",
    domain: "lakeshorecu.com",
    address: { line1: "411 E Wisconsin Ave", city: "Milwaukee", region: "WI", postalCode: "53202", country: "US" },
  },
];

export const people: DemoPerson[] = [
  { first: "Ada", last: "Okafor", title: "VP Operations" },
  { first: "Ben", last: "Hartley", title: "Director of IT" },
  { first: "Chloe", last: "Nakamura", title: "Head of Procurement" },
  { first: "Diego", last: "Alvarez", title: "Chief Financial Officer" },
  { first: "Elena", last: "Petrova", title: "VP Marketing" },
  { first: "Farid", last: "Haddad", title: "Revenue Operations Lead" },
  { first: "Grace", last: "Lindqvist", title: "Chief Operating Officer" },
  { first: "Hiro", last: "Tanaka", title: "Director of Engineering" },
  { first: "Isla", last: "McKenzie", title: "Head of Growth" },
  { first: "Jonas", last: "Becker", title: "Procurement Manager" },
  { first: "Keisha", last: "Robinson", title: "VP Sales" },
  { first: "Liam", last: "O'Connell", title: "IT Manager" },
  { first: "Maya", last: "Srinivasan", title: "Chief Technology Officer" },
  { first: "Noah", last: "Feldman", title: "Controller" },
  { first: "Olivia", last: "Dubois", title: "Head of Customer Success" },
  { first: "Priya", last: "Raman", title: "Director of Finance" },
  { first: "Quentin", last: "Moreau", title: "VP Supply Chain" },
  { first: "Rosa", last: "Jiménez", title: "Marketing Director" },
  { first: "Samuel", last: "Adeyemi", title: "Head of Security" },
  { first: "Tara", last: "Whitfield", title: "Chief Revenue Officer" },
  { first: "Umar", last: "Siddiqui", title: "Data Platform Lead" },
  { first: "Vera", last: "Kowalski", title: "Operations Manager" },
  { first: "Wes", last: "Thornton", title: "Director of Partnerships" },
  { first: "Ximena", last: "Castillo", title: "General Counsel" },
  { first: "Yusuf", last: "Demir", title: "VP Product" },
  { first: "Zoe", last: "Fairbanks", title: "Chief of Staff" },
  { first: "Amir", last: "Karimi", title: "Finance Manager" },
  { first: "Bea", last: "Sorensen", title: "Head of People" },
  { first: "Caleb", last: "Osei", title: "Sales Operations Manager" },
  { first: "Dana", last: "Whitaker", title: "VP Customer Experience" },
];

/** A floor or suite per person, so people at one office have distinct delivery lines. */
export function suiteFor(index: number): string {
  return `Floor ${(index % 9) + 2}`;
}
