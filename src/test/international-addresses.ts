import type { TMailabilityReason } from "@/server/programme/mailability/reasons";

/** An address's fields as a contact keeps them. */
export interface TFixtureAddress {
  firstName: string;
  lastName: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string;
}

/**
 * A real-looking business address in each country, written as that country's post writes it
 * (public buildings and well-known offices), and real defects of each: a postal code that cannot
 * be the country's, a field its post requires left out, a region that is not one of its own.
 */
export const INTERNATIONAL: Record<
  string,
  { good: TFixtureAddress; defects: { change: Partial<TFixtureAddress>; reason: TMailabilityReason }[] }
> = {
  GB: {
    good: {
      firstName: "Olivia",
      lastName: "Bennett",
      addressLine1: "10 Downing Street",
      addressLine2: null,
      city: "London",
      region: "Greater London",
      postalCode: "SW1A 2AA",
      country: "GB",
    },
    defects: [
      { change: { postalCode: "SW1A 2A" }, reason: "invalid_postal_code" },
      { change: { postalCode: null }, reason: "missing_postal_code" },
    ],
  },
  DE: {
    good: {
      firstName: "Jonas",
      lastName: "Müller",
      addressLine1: "Domkloster 4",
      addressLine2: null,
      city: "Köln",
      region: "NRW",
      postalCode: "50667",
      country: "DE",
    },
    defects: [
      { change: { postalCode: "506670" }, reason: "invalid_postal_code" },
      { change: { city: null }, reason: "missing_city" },
    ],
  },
  FR: {
    good: {
      firstName: "Camille",
      lastName: "Lefèvre",
      addressLine1: "55 Rue du Faubourg Saint-Honoré",
      addressLine2: null,
      city: "Paris",
      region: null,
      postalCode: "75008",
      country: "FR",
    },
    defects: [
      { change: { postalCode: "750080" }, reason: "invalid_postal_code" },
      { change: { city: null }, reason: "missing_city" },
    ],
  },
  IT: {
    good: {
      firstName: "Giulia",
      lastName: "Rossi",
      addressLine1: "Piazza del Duomo 21",
      addressLine2: null,
      city: "Milano",
      region: "MI",
      postalCode: "20122",
      country: "IT",
    },
    defects: [
      { change: { region: null }, reason: "invalid_region" },
      { change: { postalCode: "201220" }, reason: "invalid_postal_code" },
    ],
  },
  ES: {
    good: {
      firstName: "Lucía",
      lastName: "García",
      addressLine1: "Calle de Alcalá 45",
      addressLine2: null,
      city: "Madrid",
      region: "Madrid",
      postalCode: "28014",
      country: "ES",
    },
    defects: [
      { change: { region: "Lombardia" }, reason: "invalid_region" },
      { change: { postalCode: "2801A" }, reason: "invalid_postal_code" },
    ],
  },
  NL: {
    good: {
      firstName: "Daan",
      lastName: "de Vries",
      addressLine1: "Dam 1",
      addressLine2: null,
      city: "Amsterdam",
      region: null,
      postalCode: "1012 JS",
      country: "NL",
    },
    defects: [
      { change: { postalCode: "1012" }, reason: "invalid_postal_code" },
      { change: { city: null }, reason: "missing_city" },
    ],
  },
  JP: {
    good: {
      firstName: "太郎",
      lastName: "山田",
      addressLine1: "千代田区丸の内1-9-1",
      addressLine2: null,
      city: null,
      region: "東京都",
      postalCode: "100-0005",
      country: "JP",
    },
    defects: [
      { change: { region: null }, reason: "invalid_region" },
      { change: { postalCode: "100-000" }, reason: "invalid_postal_code" },
    ],
  },
  CN: {
    good: {
      firstName: "伟",
      lastName: "王",
      addressLine1: "建国门外大街1号",
      addressLine2: null,
      city: "朝阳区",
      region: "北京市",
      postalCode: "100004",
      country: "CN",
    },
    defects: [
      { change: { region: null }, reason: "invalid_region" },
      { change: { postalCode: "10004" }, reason: "invalid_postal_code" },
    ],
  },
  KR: {
    good: {
      firstName: "민준",
      lastName: "김",
      addressLine1: "세종대로 110",
      addressLine2: null,
      city: "중구",
      region: "서울특별시",
      postalCode: "04524",
      country: "KR",
    },
    defects: [
      { change: { region: null }, reason: "invalid_region" },
      { change: { postalCode: "100-744X" }, reason: "invalid_postal_code" },
    ],
  },
  RU: {
    good: {
      firstName: "Анна",
      lastName: "Иванова",
      addressLine1: "ул. Тверская, д. 13",
      addressLine2: null,
      city: "Москва",
      region: "Москва",
      postalCode: "125032",
      country: "RU",
    },
    defects: [
      { change: { postalCode: "12503" }, reason: "invalid_postal_code" },
      { change: { region: null }, reason: "invalid_region" },
    ],
  },
  BR: {
    good: {
      firstName: "Ana",
      lastName: "Souza",
      addressLine1: "Av. Paulista, 1578",
      addressLine2: "Bela Vista",
      city: "São Paulo",
      region: "SP",
      postalCode: "01310-200",
      country: "BR",
    },
    defects: [
      { change: { postalCode: "01310-20" }, reason: "invalid_postal_code" },
      { change: { region: "Lisboa" }, reason: "invalid_region" },
    ],
  },
  MX: {
    good: {
      firstName: "José",
      lastName: "Hernández",
      addressLine1: "Av. Paseo de la Reforma 505",
      addressLine2: "Col. Cuauhtémoc",
      city: "Ciudad de México",
      region: "CDMX",
      postalCode: "06500",
      country: "MX",
    },
    defects: [
      { change: { postalCode: "0650X" }, reason: "invalid_postal_code" },
      { change: { region: "Texas" }, reason: "invalid_region" },
    ],
  },
  CA: {
    good: {
      firstName: "Liam",
      lastName: "Tremblay",
      addressLine1: "111 Wellington St",
      addressLine2: null,
      city: "Ottawa",
      region: "ON",
      postalCode: "K1A 0A9",
      country: "CA",
    },
    defects: [
      { change: { region: null }, reason: "invalid_region" },
      { change: { postalCode: "K1A 0A" }, reason: "invalid_postal_code" },
    ],
  },
  AU: {
    good: {
      firstName: "Charlotte",
      lastName: "Smith",
      addressLine1: "1 Macquarie St",
      addressLine2: null,
      city: "Sydney",
      region: "NSW",
      postalCode: "2000",
      country: "AU",
    },
    defects: [
      { change: { region: "Ontario" }, reason: "invalid_region" },
      { change: { postalCode: "20000" }, reason: "invalid_postal_code" },
    ],
  },
  IN: {
    good: {
      firstName: "Aarav",
      lastName: "Sharma",
      addressLine1: "Bandra Kurla Complex, G Block",
      addressLine2: null,
      city: "Mumbai",
      region: "Maharashtra",
      postalCode: "400051",
      country: "IN",
    },
    defects: [
      { change: { region: null }, reason: "invalid_region" },
      { change: { postalCode: "40005" }, reason: "invalid_postal_code" },
    ],
  },
  US: {
    good: {
      firstName: "Emma",
      lastName: "Johnson",
      addressLine1: "1600 Pennsylvania Ave NW",
      addressLine2: null,
      city: "Washington",
      region: "DC",
      postalCode: "20500",
      country: "US",
    },
    defects: [
      { change: { region: null }, reason: "invalid_region" },
      { change: { postalCode: "2050O" }, reason: "invalid_postal_code" },
    ],
  },
};

/**
 * Regions written in another accepted form, each normalised to the form the post writes
 * ([country, as written, as the post writes it]); where the post prints no region it is kept.
 */
export const REGION_FORMS: [string, string, string][] = [
  ["GB", "Greater London", "Greater London"],
  ["DE", "NRW", "NRW"],
  ["IT", "Milano", "MI"],
  ["IT", "mi", "MI"],
  // Written in Latin script, a region stays in Latin script (the data's Latin name).
  ["JP", "Tokyo", "Tokyo"],
  ["JP", "Tokyo-to", "Tokyo"],
  ["JP", "東京", "東京都"],
  ["JP", "JP-13", "Tokyo"],
  ["RU", "Moskva", "Moskva"],
  ["RU", "Moscow", "Moskva"],
  ["RU", "г. Москва", "Москва"],
  ["RU", "Москва", "Москва"],
  ["CN", "Beijing", "Beijing Shi"],
  ["CN", "北京", "北京市"],
  ["KR", "Seoul", "Seoul"],
  ["KR", "서울", "서울특별시"],
  ["MX", "Ciudad de México", "CDMX"],
  ["IN", "MH", "Maharashtra"],
  ["BR", "São Paulo", "SP"],
  ["ES", "M", "Madrid"],
  ["US", "district of columbia", "DC"],
  ["CA", "ontario", "ON"],
  ["AU", "New South Wales", "NSW"],
];
