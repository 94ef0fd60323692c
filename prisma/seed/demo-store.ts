import { randomUUID } from 'node:crypto';
import { allScopePairs, toScopeObjects } from '../../src/access/scopes';
import type { Db, Tx } from '../../src/db/client';
import { issueApiKey } from '../../src/modules/api-keys/issue';
import { createStaffUser, createStore } from '../../src/modules/stores/provision';
import type { Prisma } from '../generated/client/client';
import type { OrderStatus, ProductStatus, ReviewStatus } from '../generated/client/enums';

export const DEMO_STORE_NAME = 'Demo Outfitters';
export const DEMO_OWNER_EMAIL = 'owner@demo.store';
/** A demo: the password is meant to be printed. */
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_STAFF = [
  { email: 'admin@demo.store', name: 'Alex Rivera', role: 'ADMIN' },
  { email: 'staff@demo.store', name: 'Sam Patel', role: 'STAFF' },
] as const;
export const DEMO_KEY_NAME = 'Demo key (all scopes)';

export interface SeedResult {
  created: boolean;
  storeId: string;
  ownerEmail: string;
  /** Only when created. */
  ownerPassword?: string;
  /** The demo key's secret; only when created, and never again. */
  apiKey?: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FIRST_ORDER_NUMBER = 1001;
const ORDER_COUNT = 240;
const REVIEW_COUNT = 60;
const ABANDONED_AFTER_MS = 60_000;

/**
 * Creates the "Demo Outfitters" store (PRO plan) with a realistic, deterministic catalogue, customers,
 * ~120 days of orders, coupons, reviews, an admin and a staff user, and one development API key with
 * every scope. Idempotent: when the demo owner exists, nothing is written and `created` is false.
 * Dates are relative to `now`; everything else comes from a fixed-seed PRNG.
 */
export async function seedDemoStore(db: Db, options: { now?: Date } = {}): Promise<SeedResult> {
  const now = options.now ?? new Date();
  const existing = await findDemoStore(db);
  if (existing) return existing;

  let store: Awaited<ReturnType<typeof createStore>>;
  try {
    store = await createStore(db, {
      name: DEMO_STORE_NAME,
      plan: 'PRO',
      ownerEmail: DEMO_OWNER_EMAIL,
      ownerName: 'Jordan Lee',
      ownerPassword: DEMO_PASSWORD,
      onlyStoreOfOwner: true,
    });
  } catch (error) {
    // Another process seeding at the same moment won the race.
    const raced = await findDemoStore(db);
    if (raced) return raced;
    throw error;
  }

  try {
    for (const staff of DEMO_STAFF) {
      await createStaffUser(db, { storeId: store.id, ...staff, password: DEMO_PASSWORD });
    }
    const data = buildDemoData(store.id, now);
    // All the data and the key commit together; nextOrderNumber moving past 1001 marks a finished seed.
    const apiKey = await db.$transaction(
      async (tx) => {
        // The demo data is a few large statements: no per-statement limit for the seed
        await tx.$executeRaw`SET LOCAL statement_timeout = 0`;
        await insertDemoData(tx, data);
        await tx.store.update({
          where: { id: store.id },
          data: { timezone: 'America/Denver', nextOrderNumber: FIRST_ORDER_NUMBER + data.orders.length },
        });
        const issued = await issueApiKey(
          tx,
          store.id,
          { keyName: DEMO_KEY_NAME, environment: 'development', scopes: toScopeObjects(allScopePairs()) },
          { now, createdByStaffId: store.ownerId ?? undefined },
        );
        return issued.secret;
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
    return {
      created: true,
      storeId: store.id,
      ownerEmail: DEMO_OWNER_EMAIL,
      ownerPassword: DEMO_PASSWORD,
      apiKey,
    };
  } catch (error) {
    // No half-seeded demo store: the next run starts over.
    await db.store.delete({ where: { id: store.id } }).catch(() => {});
    throw error;
  }
}

/**
 * The demo store when it exists. One left empty by a run killed between createStore and the data's commit
 * (no orders, products or keys, order numbers untouched, over a minute old) is removed so the seed starts
 * over; a younger one may still be being seeded by another process and counts as existing.
 */
async function findDemoStore(db: Db): Promise<SeedResult | null> {
  const owner = await db.staffUser.findFirst({
    where: { email: DEMO_OWNER_EMAIL, role: 'OWNER' },
    select: {
      store: {
        select: {
          id: true,
          nextOrderNumber: true,
          createdAt: true,
          _count: { select: { orders: true, products: true, apiKeys: true } },
        },
      },
    },
  });
  if (!owner) return null;
  const { store } = owner;
  const abandoned =
    store.nextOrderNumber === FIRST_ORDER_NUMBER &&
    store._count.orders + store._count.products + store._count.apiKeys === 0 &&
    Date.now() - store.createdAt.getTime() > ABANDONED_AFTER_MS;
  if (!abandoned) return { created: false, storeId: store.id, ownerEmail: DEMO_OWNER_EMAIL };
  await db.store.delete({ where: { id: store.id } });
  return null;
}

export interface DemoData {
  categories: Prisma.CategoryCreateManyInput[];
  products: Prisma.ProductCreateManyInput[];
  customers: Prisma.CustomerCreateManyInput[];
  coupons: Prisma.CouponCreateManyInput[];
  orders: Prisma.OrderCreateManyInput[];
  items: Prisma.OrderItemCreateManyInput[];
  reviews: Prisma.ReviewCreateManyInput[];
}

async function insertDemoData(tx: Tx, data: DemoData) {
  await tx.category.createMany({ data: data.categories });
  await tx.product.createMany({ data: data.products });
  await tx.customer.createMany({ data: data.customers });
  await tx.coupon.createMany({ data: data.coupons });
  await tx.order.createMany({ data: data.orders });
  await tx.orderItem.createMany({ data: data.items });
  await tx.review.createMany({ data: data.reviews });
}

/** mulberry32: small, fast, and the same sequence on every machine. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  /** Picks from `{ value: weight, … }`. */
  const weighted = <K extends string>(weights: Record<K, number>): K => {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let roll = next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]?.[0] as K;
  };
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  };
  return { next, int, pick, weighted, shuffle };
}

const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '')}`;
const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/°f/g, 'f')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const latest = (...dates: Array<Date | null | undefined>) =>
  new Date(Math.max(...dates.filter((d): d is Date => d instanceof Date).map((d) => d.getTime())));

/** [name, SKU prefix, description, [min, max] price in cents, products]. */
const CATALOGUE = [
  [
    'Jackets & Coats',
    'JKT',
    'Shells, parkas and insulated layers for every forecast.',
    [8900, 34900],
    [
      'Ridgeline Rain Shell',
      'Summit Down Parka',
      'Trailhead Fleece Jacket',
      'Alpine Softshell',
      'Packable Wind Breaker',
      'Storm Guard Insulated Jacket',
    ],
  ],
  [
    'Shirts & Tops',
    'SHT',
    'Tees, flannels and sun shirts that dry fast.',
    [2400, 7900],
    [
      'Merino Crew Tee',
      'Canyon Flannel Shirt',
      'Sun Hoodie UPF 50',
      'Classic Pocket Tee',
      'Quick-Dry Trail Shirt',
      'Heritage Henley',
    ],
  ],
  [
    'Pants & Shorts',
    'PNT',
    'Stretchy, tough bottoms for the trail and the town.',
    [3900, 12900],
    [
      'Switchback Hiking Pants',
      'Convertible Zip-Off Pants',
      'Basecamp Joggers',
      'Trail Running Shorts',
      'Canvas Work Pants',
      'Ripstop Cargo Shorts',
    ],
  ],
  [
    'Footwear',
    'FTW',
    'Boots, trail runners and camp shoes.',
    [6900, 21900],
    [
      'Granite Hiking Boots',
      'Trail Runner 2',
      'Camp Slip-On Moc',
      'Waterproof Mid Hiker',
      'River Sandal',
      'Winter Snow Boot',
    ],
  ],
  [
    'Backpacks & Bags',
    'BAG',
    'Daypacks to duffels, built to be overstuffed.',
    [2900, 24900],
    [
      'Daypack 22L',
      'Overnight Pack 45L',
      'Roll-Top Dry Bag 20L',
      'Sling Bag',
      'Expedition Duffel 60L',
      'Hip Pack',
    ],
  ],
  [
    'Camping Gear',
    'CMP',
    'Shelter, sleep and kitchen for nights outside.',
    [1900, 44900],
    [
      'Two-Person Backpacking Tent',
      'Ultralight Sleeping Bag 20°F',
      'Inflatable Sleeping Pad',
      'Camp Stove Kit',
      'Folding Camp Chair',
      'LED Headlamp 400',
    ],
  ],
  [
    'Headwear',
    'HAT',
    'Caps, beanies and brims.',
    [1900, 4900],
    ['Trucker Cap', 'Merino Beanie', 'Wide-Brim Sun Hat', 'Five-Panel Camp Hat', 'Bucket Hat', 'Pom Beanie'],
  ],
  [
    'Socks & Base Layers',
    'BSE',
    'Merino and synthetic layers next to the skin.',
    [1400, 8900],
    [
      'Hiking Socks 3-Pack',
      'Merino Base Layer Top',
      'Merino Base Layer Bottom',
      'Liner Socks',
      'Compression Run Socks',
      'Midweight Thermal Crew',
    ],
  ],
  [
    'Drinkware',
    'DRK',
    'Bottles, mugs and coffee kit.',
    [1200, 4900],
    [
      'Insulated Bottle 32 oz',
      'Camp Mug 12 oz',
      'Collapsible Cup',
      'Tumbler 20 oz',
      'Water Filter Bottle',
      'Pour-Over Coffee Kit',
    ],
  ],
  [
    'Accessories',
    'ACC',
    'The small things that save a trip.',
    [900, 5900],
    [
      'Trekking Poles (Pair)',
      'Fleece Gloves',
      'Carabiner Keychain',
      'Microfiber Towel',
      'Polarized Sunglasses',
      'Gear Repair Kit',
    ],
  ],
] as const;

const FEATURES = [
  'Made with recycled materials.',
  'Backed by our lifetime repair promise.',
  'Tested on the Colorado Trail.',
  'Lightweight and packs down small.',
  'Built for four seasons of use.',
  'Designed in Boulder, Colorado.',
];

const FIRST_NAMES = (
  'Olivia Liam Emma Noah Ava Elijah Sophia Mateo Isabella Lucas Mia Ethan Amelia Mason Harper Logan Evelyn ' +
  'Aiden Priya Kenji Fatima Diego Chloe Omar Grace Wei Zoe Samuel Nora Andre Leah Hugo Maya Felix Aisha Jonah'
).split(' ');
const LAST_NAMES = (
  'Smith Johnson Garcia Nguyen Brown Martinez Kim Patel Okafor Müller Rossi Silva Cohen Tanaka Anderson Lopez ' +
  "Hughes Dubois Kowalski Haddad Jensen Reyes Chen O'Brien Walker Fischer Ali Novak Baker Ivanova"
).split(' ');
const DOMAINS = ['example.com', 'example.org', 'example.net'];
const ORDER_NOTES = [
  'Please leave the package at the side door.',
  'This is a gift, no receipt in the box please.',
  'Call on arrival.',
  'Need this before the weekend trip if possible!',
];
const CANCEL_REASONS = [
  'Customer changed their mind',
  'Payment failed',
  'Item out of stock',
  'Duplicate order',
  'Shipping address could not be verified',
];
const REVIEW_TEXT: Record<number, Array<[string, string]>> = {
  5: [
    ['Absolutely love it', 'Exceeded my expectations on a week-long trip. Would buy again.'],
    ['Best purchase this year', 'Great quality and it arrived fast. Fits true to size.'],
    ['Worth every penny', 'Survived rain, mud and my kids. Still looks new.'],
  ],
  4: [
    ['Very good', 'Solid build and comfortable. Runs slightly small, so size up.'],
    ['Happy with it', 'Does exactly what it should. The color is a bit darker than the photos.'],
  ],
  3: [
    ['It is okay', 'Decent for the price, but the stitching came loose after a month.'],
    ['Mixed feelings', 'Works fine, though heavier than I expected.'],
  ],
  2: [['Not great', 'The zipper sticks and customer service took a while to answer.']],
  1: [['Disappointed', 'Arrived damaged and the replacement took two weeks.']],
};

interface SeedCoupon {
  id: string;
  code: string;
  type: 'percent' | 'fixed';
  value: number;
  minSubtotalAmount: number | null;
  maxRedemptions: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  isActive: boolean;
  redemptionCount: number;
}

/** The whole demo data set, in memory, ready for createMany. */
export function buildDemoData(storeId: string, now: Date): DemoData {
  const random = prng(0xdec0de);
  const at = (msBeforeNow: number) => new Date(now.getTime() - msBeforeNow);

  const categories: Prisma.CategoryCreateManyInput[] = [];
  const products: Array<
    Prisma.ProductCreateManyInput & { id: string; status: ProductStatus; createdAt: Date }
  > = [];
  CATALOGUE.forEach(([name, prefix, description, [minPrice, maxPrice], names], position) => {
    const categoryId = id('cat');
    const createdAt = at(140 * DAY - position * HOUR);
    categories.push({
      id: categoryId,
      storeId,
      name,
      slug: slugify(name),
      description,
      position,
      createdAt,
      updatedAt: createdAt,
    });
    names.forEach((productName, index) => {
      const status = random.weighted<ProductStatus>({ active: 84, draft: 9, archived: 7 });
      // Prices end in .00 or .50, minus a cent half the time: $89.00, $129.49.
      const price = Math.round(random.int(minPrice, maxPrice) / 50) * 50 - (random.next() < 0.5 ? 1 : 0);
      const onSale = status === 'active' && random.next() < 0.18;
      const productCreatedAt =
        status === 'draft' ? at(random.int(2, 20) * DAY) : at(121 * DAY + random.int(0, 18 * 24) * HOUR);
      products.push({
        id: id('prd'),
        storeId,
        categoryId,
        name: productName,
        slug: slugify(productName),
        description: `${productName} from the Demo Outfitters ${name.toLowerCase()} line. ${random.pick(FEATURES)}`,
        sku: `DO-${prefix}-${String(index + 1).padStart(3, '0')}`,
        priceAmount: price,
        compareAtAmount: onSale ? Math.round((price * 1.25) / 100) * 100 : null,
        currency: 'USD',
        stock:
          status === 'archived'
            ? 0
            : status === 'draft'
              ? random.int(0, 40)
              : random.next() < 0.08
                ? 0
                : random.int(3, 240),
        status,
        createdAt: productCreatedAt,
        updatedAt: status === 'archived' ? at(random.int(30, 60) * DAY) : productCreatedAt,
      });
    });
  });

  const customers: Array<Prisma.CustomerCreateManyInput & { id: string; email: string; createdAt: Date }> =
    [];
  const emails = new Set<string>();
  while (customers.length < 40) {
    const firstName = random.pick(FIRST_NAMES);
    const lastName = random.pick(LAST_NAMES);
    const local = `${firstName}.${lastName}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    let email = `${local}@${random.pick(DOMAINS)}`;
    for (let n = 2; emails.has(email); n++) email = `${local}${n}@${random.pick(DOMAINS)}`;
    emails.add(email);
    const createdAt = at(random.int(2 * 24, 180 * 24) * HOUR + random.int(0, 59) * MINUTE);
    customers.push({
      id: id('cus'),
      storeId,
      email,
      firstName,
      lastName,
      phone: random.next() < 0.6 ? `+1-555-01${String(random.int(0, 99)).padStart(2, '0')}` : null,
      acceptsMarketing: random.next() < 0.45,
      createdAt,
      updatedAt: createdAt,
    });
  }
  // Some customers come back often: weight the pick towards the front of a shuffled list.
  const loyalty = random.shuffle([...customers]);

  const coupon = (
    code: string,
    type: SeedCoupon['type'],
    value: number,
    more: Partial<Omit<SeedCoupon, 'id' | 'code' | 'type' | 'value'>> = {},
  ): SeedCoupon => ({
    id: id('cpn'),
    code,
    type,
    value,
    minSubtotalAmount: null,
    maxRedemptions: null,
    startsAt: null,
    endsAt: null,
    isActive: true,
    redemptionCount: 0,
    ...more,
  });
  const coupons: SeedCoupon[] = [
    coupon('WELCOME10', 'percent', 10, { startsAt: at(150 * DAY) }),
    coupon('SPRING20', 'percent', 20, {
      minSubtotalAmount: 10000,
      startsAt: at(120 * DAY),
      endsAt: at(75 * DAY),
    }),
    coupon('SAVE15', 'fixed', 1500, { minSubtotalAmount: 7500, startsAt: at(90 * DAY) }),
    coupon('VIP25', 'percent', 25, { maxRedemptions: 10, startsAt: at(60 * DAY) }),
    // Switched off, and one scheduled for the holidays: not used yet.
    coupon('TAKE5', 'fixed', 500, { minSubtotalAmount: 2500, isActive: false }),
    coupon('HOLIDAY30', 'percent', 30, {
      minSubtotalAmount: 5000,
      maxRedemptions: 500,
      startsAt: at(-20 * DAY),
      endsAt: at(-50 * DAY),
    }),
  ];

  // Orders: numbered in time order, like a real store's.
  // A growing store: more orders lately (ages skewed towards now), the oldest ~120 days back.
  const placedAt = Array.from({ length: ORDER_COUNT }, () =>
    at(30 * MINUTE + Math.floor(random.next() ** 1.3 * 120 * DAY)),
  ).sort((a, b) => a.getTime() - b.getTime());
  const orders: Array<
    Prisma.OrderCreateManyInput & { id: string; status: OrderStatus; fulfilledAt: Date | null }
  > = [];
  const items: Prisma.OrderItemCreateManyInput[] = [];
  const reviewable: Array<{ customerId: string; productId: string; after: Date }> = [];
  placedAt.forEach((createdAt, index) => {
    const age = now.getTime() - createdAt.getTime();
    const known = loyalty.filter((customer) => customer.createdAt <= createdAt);
    const customer =
      known.length > 0 && random.next() < 0.85
        ? known[Math.floor(random.next() ** 1.6 * known.length)]
        : undefined;

    const orderable = products.filter(
      (p) =>
        p.createdAt <= createdAt && (p.status === 'active' || (p.status === 'archived' && age > 60 * DAY)),
    );
    const lines = random
      .shuffle([...orderable])
      .slice(0, Number(random.weighted({ 1: 50, 2: 30, 3: 14, 4: 6 })));
    const orderId = id('ord');
    let subtotal = 0;
    for (const product of lines) {
      const quantity = Number(random.weighted({ 1: 75, 2: 18, 3: 7 }));
      const unitAmount = product.priceAmount;
      subtotal += unitAmount * quantity;
      items.push({
        id: id('itm'),
        orderId,
        productId: product.id,
        name: product.name,
        sku: product.sku,
        unitAmount,
        quantity,
        totalAmount: unitAmount * quantity,
      });
    }

    let coupon: SeedCoupon | undefined;
    let discount = 0;
    if (random.next() < 0.22) {
      const usable = coupons.filter(
        (c) =>
          c.isActive &&
          (!c.startsAt || c.startsAt <= createdAt) &&
          (!c.endsAt || createdAt < c.endsAt) &&
          (c.minSubtotalAmount === null || subtotal >= c.minSubtotalAmount) &&
          (c.maxRedemptions === null || c.redemptionCount < c.maxRedemptions),
      );
      if (usable.length > 0) {
        coupon = random.pick(usable);
        coupon.redemptionCount++;
        discount =
          coupon.type === 'percent'
            ? Math.floor((subtotal * coupon.value) / 100)
            : Math.min(coupon.value, subtotal);
      }
    }

    let status = random.weighted<OrderStatus>(
      age < 2 * DAY
        ? { pending: 50, paid: 30, fulfilled: 10, cancelled: 10 }
        : age < 7 * DAY
          ? { pending: 15, paid: 30, fulfilled: 45, cancelled: 10 }
          : { pending: 3, paid: 5, fulfilled: 80, cancelled: 12 },
    );
    const latestPossible = now.getTime() - MINUTE;
    const cancelReason = status === 'cancelled' ? random.pick(CANCEL_REASONS) : null;
    const paid =
      status === 'paid' ||
      status === 'fulfilled' ||
      (status === 'cancelled' && cancelReason !== 'Payment failed' && random.next() < 0.4);
    const paidAt = paid
      ? new Date(Math.min(createdAt.getTime() + random.int(1, 30) * MINUTE, latestPossible))
      : null;
    let fulfilledAt: Date | null = null;
    let cancelledAt: Date | null = null;
    if (status === 'fulfilled' && paidAt) {
      const when = Math.min(paidAt.getTime() + random.int(4, 72) * HOUR, latestPossible);
      if (when - paidAt.getTime() >= 10 * MINUTE) fulfilledAt = new Date(when);
      else status = 'paid';
    }
    if (status === 'cancelled') {
      const from = (paidAt ?? createdAt).getTime();
      cancelledAt = new Date(
        Math.max(from + MINUTE, Math.min(from + random.int(10, 48 * 60) * MINUTE, latestPossible)),
      );
    }

    orders.push({
      id: orderId,
      storeId,
      number: FIRST_ORDER_NUMBER + index,
      customerId: customer?.id ?? null,
      email: customer?.email ?? `guest${FIRST_ORDER_NUMBER + index}@${random.pick(DOMAINS)}`,
      status,
      currency: 'USD',
      subtotalAmount: subtotal,
      discountAmount: discount,
      totalAmount: subtotal - discount,
      couponId: coupon?.id ?? null,
      note: random.next() < 0.08 ? random.pick(ORDER_NOTES) : null,
      paidAt,
      fulfilledAt,
      cancelledAt,
      cancelReason,
      createdAt,
      updatedAt: latest(createdAt, paidAt, fulfilledAt, cancelledAt),
    });
    if (status === 'fulfilled' && customer && fulfilledAt) {
      for (const product of lines)
        reviewable.push({ customerId: customer.id, productId: product.id, after: fulfilledAt });
    }
  });

  // Reviews: by customers who received the product, some days after delivery.
  const reviews: Prisma.ReviewCreateManyInput[] = [];
  const reviewed = new Set<string>();
  for (const candidate of random.shuffle(reviewable)) {
    if (reviews.length >= REVIEW_COUNT) break;
    const pair = `${candidate.customerId}:${candidate.productId}`;
    const createdAt = new Date(candidate.after.getTime() + random.int(2 * 24, 20 * 24) * HOUR);
    if (reviewed.has(pair) || createdAt >= now) continue;
    reviewed.add(pair);
    const rating = Number(random.weighted({ 5: 45, 4: 30, 3: 13, 2: 7, 1: 5 }));
    const [title, body] = random.pick(REVIEW_TEXT[rating] ?? []);
    const status = random.weighted<ReviewStatus>(
      now.getTime() - createdAt.getTime() < 3 * DAY
        ? { pending: 80, approved: 20, rejected: 0 }
        : { approved: 78, pending: 12, rejected: 10 },
    );
    reviews.push({
      id: id('rev'),
      storeId,
      productId: candidate.productId,
      customerId: candidate.customerId,
      rating,
      title,
      body,
      status,
      createdAt,
      updatedAt:
        status === 'pending' ? createdAt : new Date(Math.min(createdAt.getTime() + DAY, now.getTime())),
    });
  }

  return {
    categories,
    products,
    customers,
    coupons: coupons.map((coupon) => ({
      ...coupon,
      storeId,
      createdAt: coupon.startsAt && coupon.startsAt < now ? coupon.startsAt : at(10 * DAY),
      updatedAt: now,
    })),
    orders,
    items,
    reviews,
  };
}
