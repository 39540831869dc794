/**
 * Scenario table, sticker shop: purchases with quantities in words and digits, the cart and
 * checkout, the session grant, a tier3 delete, and requests that name no single product or
 * order (the model must ask, not buy). Each row asserts the calls, their arguments, the
 * confirmation labels and the shop afterwards (balance, orders, cart).
 */
import { describeScenarios, type Scenario } from './scenarios.js';

const balance = 'shop.balance';
const orders = 'shop.orders.map((o) => o.sku)';
const cart = 'shop.cart.map((l) => `${l.quantity} ${l.sku}`)';

const table: Array<[string, Scenario]> = [
  ['the index page\'s first suggestion, word for word', {
    say: 'buy the blue mug',
    answers: ['confirm'],
    calls: [{ name: 'add_to_cart', args: { sku: 'blue-mug', quantity: 1 } }, { name: 'checkout', args: {} }],
    confirmations: [/^Pay 60 cr for 1 × Blue mug\?$/],
    reply: /Added 1 × Blue mug to the cart.*paid 60 credits/is,
    replyNot: /add to cart|Bought checkout/i,
    state: [[balance, 440], [orders, ['wave-pack', 'blue-mug']], [cart, []]],
  }],
  ['the second suggestion: a quantity in words', {
    say: 'buy two notebooks',
    answers: ['confirm'],
    calls: [{ name: 'add_to_cart', args: { sku: 'notebook', quantity: 2 } }, { name: 'checkout', args: {} }],
    confirmations: [/^Pay 90 cr for 2 × Dotted notebook\?$/],
    reply: /Added 2 × Dotted notebook to the cart/,
    state: [[balance, 410], [orders, ['wave-pack', 'notebook', 'notebook']]],
  }],
  ['both suggestions in a row under "Approve for this session"', {
    say: [{ say: 'buy the blue mug', answers: ['approve'] }, { say: 'buy two notebooks' }],
    calls: [
      { name: 'add_to_cart', args: { sku: 'blue-mug', quantity: 1 } }, { name: 'checkout', args: {} },
      { name: 'add_to_cart', args: { sku: 'notebook', quantity: 2 } }, { name: 'checkout', args: {} },
    ],
    confirmations: [/Blue mug/],
    state: [[balance, 350], [orders, ['wave-pack', 'blue-mug', 'notebook', 'notebook']]],
  }],
  ['a quantity in digits with another verb', {
    say: 'order 3 mugs',
    answers: ['confirm'],
    calls: [{ name: 'add_to_cart', args: { sku: 'blue-mug', quantity: 3 } }, { name: 'checkout', args: {} }],
    confirmations: [/^Pay 180 cr for 3 × Blue mug\?$/],
    state: [[balance, 320]],
  }],
  ['a cart request adds and does not pay', {
    say: 'add a cat sticker pack to my cart',
    calls: [{ name: 'add_to_cart', args: { sku: 'cat-pack', quantity: 1 } }],
    reply: /Added 1 × Cat sticker pack to the cart/,
    state: [[balance, 500], [cart, ['1 cat-pack']]],
  }],
  ['"put … in the basket" with a number word', {
    say: 'put four notebooks in the basket',
    calls: [{ name: 'add_to_cart', args: { sku: 'notebook', quantity: 4 } }],
    state: [[balance, 500], [cart, ['4 notebook']]],
  }],
  ['the one-click pack tool names what it buys', {
    say: 'buy a wave sticker pack',
    answers: ['confirm'],
    calls: [{ name: 'buy_wave_sticker_pack', args: {} }],
    confirmations: [/^Buy Wave sticker pack · 30 cr\?$/],
    reply: /Bought Wave sticker pack/,
    state: [[balance, 470], [orders, ['wave-pack', 'wave-pack']]],
  }],
  ['a cancelled purchase spends nothing', {
    say: 'purchase one cat sticker pack',
    answers: ['cancel'],
    calls: [{ name: 'buy_cat_sticker_pack', args: {} }],
    confirmations: [/^Buy Cat sticker pack · 30 cr\?$/],
    reply: /cancel/i,
    state: [[balance, 500], [orders, ['wave-pack']]],
  }],
  ['several packs go through the cart', {
    say: 'buy 2 wave sticker packs',
    answers: ['confirm'],
    calls: [{ name: 'add_to_cart', args: { sku: 'wave-pack', quantity: 2 } }, { name: 'checkout', args: {} }],
    state: [[balance, 440], [orders, ['wave-pack', 'wave-pack', 'wave-pack']]],
  }],
  ['"a sticker pack" fits two products: ask which', {
    say: 'buy a sticker pack',
    calls: [],
    reply: /Which.*Cat sticker pack.*Wave sticker pack/s,
    state: [[balance, 500]],
  }],
  ['no product named: ask which, listing them', {
    say: 'buy something',
    calls: [],
    reply: /Which.*Cat sticker pack.*Wave sticker pack.*Blue mug.*Dotted notebook/s,
    state: [[balance, 500]],
  }],
  ['a vague quantity: ask how many', {
    say: 'buy some notebooks',
    calls: [],
    reply: /How many/i,
    state: [[balance, 500], [cart, []]],
  }],
  ['a product the shop does not have: say so, buy nothing', {
    say: 'buy the red mug',
    calls: [],
    reply: /red mug.*Blue mug/is,
    state: [[balance, 500], [cart, []]],
  }],
  ['more than the cart takes at once: say so', {
    say: 'add 12 notebooks to the cart',
    calls: [],
    reply: /10/,
    state: [[cart, []]],
  }],
  ['fill the cart, then check out in a second message', {
    say: [{ say: 'add two mugs to the cart' }, { say: 'check out', answers: ['confirm'] }],
    calls: [{ name: 'add_to_cart', args: { sku: 'blue-mug', quantity: 2 } }, { name: 'checkout', args: {} }],
    confirmations: [/^Pay 120 cr for 2 × Blue mug\?$/],
    state: [[balance, 380], [cart, []]],
  }],
  ['the only order is singled out; a tier3 delete names it', {
    say: 'delete my order',
    answers: ['confirm'],
    calls: [{ name: 'delete_order', args: { order_id: 'o1' } }],
    confirmations: [/^Delete order o1 \(Wave sticker pack\) for good\?$/],
    state: [['shop.orders.length', 0], [balance, 500]],
  }],
  ['two orders: "delete the order" asks which', {
    say: [{ say: 'buy a cat sticker pack', answers: ['confirm'] }, { say: 'delete the order' }],
    calls: [{ name: 'buy_cat_sticker_pack', args: {} }],
    reply: /Which order.*o1.*o2/s,
    state: [[orders, ['wave-pack', 'cat-pack']]],
  }],
  ['remove an order by id', {
    say: 'remove order o1',
    answers: ['confirm'],
    calls: [{ name: 'delete_order', args: { order_id: 'o1' } }],
    state: [['shop.orders.length', 0]],
  }],
  ['a balance question is answered from the page', {
    say: 'how many credits do I have?',
    calls: [],
    reply: /500/,
  }],
];

describeScenarios('shop scenarios (offline model, end to end)', '/shop.html', 5, table);
