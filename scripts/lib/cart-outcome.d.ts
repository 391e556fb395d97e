export interface CartOutcome {
  orders: number
  orderIds: string[]
  payments: number
  captures: number
}
export function outcomeOfOrders(orders: any[]): CartOutcome & { paymentList: any[]; captureList: any[] }
export function cartOutcomeFromSql(sql: (text: string, params?: unknown[]) => Promise<any[]>, cartId: string): Promise<CartOutcome>
