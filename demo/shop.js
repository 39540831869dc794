// A small shop whose actions spend credits: page tools with cost, the spend grant, a tier3 delete.
const shop = {
  balance: 500,
  products: [
    { sku: 'cat-pack', name: 'Cat sticker pack', price: 30 },
    { sku: 'wave-pack', name: 'Wave sticker pack', price: 30 },
    { sku: 'blue-mug', name: 'Blue mug', price: 60 },
    { sku: 'notebook', name: 'Dotted notebook', price: 45 },
  ],
  orders: [{ id: 'o1', sku: 'wave-pack', name: 'Wave sticker pack', price: 30 }],
  cart: [],
};
let nextOrder = 2;

function cartTotal() {
  return shop.cart.reduce((sum, line) => sum + line.price * line.quantity, 0);
}

function cartLines() {
  return shop.cart.map((line) => `${line.quantity} × ${line.name}`).join(', ');
}

function renderShop() {
  document.getElementById('balance').textContent = String(shop.balance);
  document.getElementById('products').replaceChildren(...shop.products.map((p) => {
    const li = document.createElement('li');
    li.textContent = `${p.name} · ${p.price} cr`;
    li.dataset.sku = p.sku;
    return li;
  }));
  document.getElementById('orders').replaceChildren(...shop.orders.map((o) => {
    const li = document.createElement('li');
    li.textContent = `${o.id}: ${o.name} (${o.price} cr)`;
    li.dataset.orderId = o.id;
    return li;
  }));
}

function publishShop(widget) {
  widget.setContext({
    page: 'Sticker shop',
    balance_credits: shop.balance,
    products: shop.products,
    cart: shop.cart,
    cart_total_credits: cartTotal(),
    orders: shop.orders.map((o) => ({ id: o.id, name: o.name, price: o.price })),
  });
}

function placeOrder(product) {
  if (shop.balance < product.price) return { success: false, error: `Not enough credits: ${shop.balance} left, ${product.price} needed` };
  shop.balance -= product.price;
  const order = { id: 'o' + nextOrder++, sku: product.sku, name: product.name, price: product.price };
  shop.orders.push(order);
  return { success: true, order, balance: shop.balance };
}

function whenWidgetReady(callback) {
  const start = Date.now();
  (function poll() {
    const widget = window.VAWaveWidget;
    if (widget && typeof widget.registerTool === 'function') return callback(widget);
    if (Date.now() - start > 10000) return;
    setTimeout(poll, 100);
  })();
}

renderShop();

// The arguments of the latest call of each tool, so a confirmLabel getter can name its target.
const requested = {};
document.addEventListener('wave-tool-call-requested', (event) => {
  requested[event.detail.name] = event.detail.args;
});

whenWidgetReady((widget) => {
  const done = (result) => { renderShop(); publishShop(widget); return result; };
  const packTool = (sku) => {
    const product = shop.products.find((p) => p.sku === sku);
    return {
      description: `Buy one ${product.name} for ${product.price} credits, charged to the visitor's balance.`,
      parameters: { type: 'object', properties: {} },
      cost: product.price,
      confirmLabel: `Buy ${product.name} · ${product.price} cr?`,
      runningLabel: `Buying ${product.name}…`,
      handler: () => done(placeOrder(product)),
      summary: () => `Bought ${product.name}`,
    };
  };

  widget.registerTools({
    buy_cat_sticker_pack: packTool('cat-pack'),
    buy_wave_sticker_pack: packTool('wave-pack'),
    add_to_cart: {
      description: 'Put a product in the cart. Nothing is charged until checkout.',
      parameters: {
        type: 'object',
        properties: {
          sku: { type: 'string', enum: shop.products.map((p) => p.sku), description: 'Product SKU from the page state' },
          quantity: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
        },
        required: ['sku'],
      },
      runningLabel: 'Adding to cart…',
      handler: ({ sku, quantity = 1 }) => {
        const product = shop.products.find((p) => p.sku === sku);
        const line = shop.cart.find((l) => l.sku === sku);
        if (line) line.quantity += quantity; else shop.cart.push({ sku, name: product.name, price: product.price, quantity });
        return done({ success: true, sku, quantity, cart_total_credits: cartTotal() });
      },
      summary: (args) => `Added ${args.quantity ?? 1} × ${shop.products.find((p) => p.sku === args.sku)?.name ?? args.sku} to the cart`,
    },
    checkout: {
      description: 'Pay for everything in the cart with the visitor\'s credits.',
      parameters: { type: 'object', properties: {} },
      // Read when the confirmation is shown: the cart may change between the call and the chip.
      get cost() { return cartTotal(); },
      get confirmLabel() { return `Pay ${cartTotal()} cr for ${cartLines() || 'an empty cart'}?`; },
      runningLabel: 'Paying…',
      handler: () => {
        const total = cartTotal();
        if (total === 0) return { success: false, error: 'The cart is empty' };
        if (shop.balance < total) return { success: false, error: `Not enough credits: ${shop.balance} left, ${total} needed` };
        shop.balance -= total;
        for (const line of shop.cart) {
          for (let i = 0; i < line.quantity; i++) shop.orders.push({ id: 'o' + nextOrder++, sku: line.sku, name: line.name, price: line.price });
        }
        shop.cart = [];
        return done({ success: true, paid: total, balance: shop.balance });
      },
      summary: (args, result) => `Paid ${result.paid} cr`,
    },
    delete_order: {
      description: 'Permanently delete an order by id. The credits are not refunded.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      confirm: true,
      tier3: true,
      // The chip names the order: the getter reads the id of the call being confirmed.
      get confirmLabel() {
        const order = shop.orders.find((o) => o.id === requested.delete_order?.order_id);
        return order ? `Delete order ${order.id} (${order.name}) for good?` : 'Delete this order for good?';
      },
      handler: ({ order_id }) => {
        const i = shop.orders.findIndex((o) => o.id === order_id);
        if (i === -1) return { success: false, error: `No order with id ${order_id}` };
        const [removed] = shop.orders.splice(i, 1);
        return done({ success: true, deleted: removed.id, name: removed.name });
      },
      summary: (args, result) => `Deleted order ${result.deleted}`,
    },
  });
  publishShop(widget);
});
