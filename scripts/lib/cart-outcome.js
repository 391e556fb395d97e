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
 * The same counts with SQL, in one statement: one snapshot, so a payment and
 * its capture written between two reads cannot show as a capture without its
 * payment. `sql(text, params)` resolves with rows.
 * @param {(text: string, params?: unknown[]) => Promise<any[]>} sql
 * @param {string} cartId
 */
async function cartOutcomeFromSql(sql, cartId) {
  const [row] = await sql(
    `with orders as (select order_id from order_cart where cart_id = $1 and deleted_at is null),
          payments as (select p.id from payment p
                       join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id and cpc.deleted_at is null
                       where cpc.cart_id = $1 and p.deleted_at is null)
     select (select coalesce(json_agg(order_id order by order_id), '[]'::json) from orders) as order_ids,
            (select count(*)::int from payments) as payments,
            (select count(*)::int from capture c join payments p on p.id = c.payment_id where c.deleted_at is null) as captures`,
    [cartId]
  )
  const orderIds = typeof row.order_ids === "string" ? JSON.parse(row.order_ids) : row.order_ids
  return { orders: orderIds.length, orderIds, payments: Number(row.payments), captures: Number(row.captures) }
}

module.exports = { outcomeOfOrders, cartOutcomeFromSql }
