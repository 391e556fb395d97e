/**
 * What a cart became: its orders, payments and captures. One definition for
 * every test and the bench, read either from orders as Medusa returns them
 * (query graph or Admin API, with payment_collections.payments.captures) or
 * straight from PostgreSQL (processes the test does not host).
 */

/**
 * @param {any[]} orders orders with `payment_collections[].payments[].captures[]`
 */
function outcomeOfOrders(orders) {
  const payments = orders.flatMap((o) => (o.payment_collections || []).flatMap((pc) => pc.payments || []))
  const captures = payments.flatMap((p) => p.captures || [])
  return {
    orders: orders.length,
    orderIds: orders.map((o) => o.id),
    payments: payments.length,
    captures: captures.length,
    paymentList: payments,
    captureList: captures,
  }
}

/**
 * The same counts with SQL. `sql(text, params)` resolves with rows.
 * @param {(text: string, params?: unknown[]) => Promise<any[]>} sql
 * @param {string} cartId
 */
async function cartOutcomeFromSql(sql, cartId) {
  const orders = await sql(`select order_id from order_cart where cart_id = $1 and deleted_at is null`, [cartId])
  const ofCart = `join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id and cpc.deleted_at is null
                  where cpc.cart_id = $1 and p.deleted_at is null`
  const payments = await sql(`select p.id from payment p ${ofCart}`, [cartId])
  const captures = await sql(`select c.id from capture c join payment p on p.id = c.payment_id ${ofCart} and c.deleted_at is null`, [cartId])
  return { orders: orders.length, orderIds: orders.map((o) => o.order_id), payments: payments.length, captures: captures.length }
}

module.exports = { outcomeOfOrders, cartOutcomeFromSql }
