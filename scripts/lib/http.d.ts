export interface JsonRequest {
  method?: string
  headers?: Record<string, string>
  body?: unknown
  timeoutMs?: number
  redirect?: "follow" | "manual"
}
export interface JsonResponse<T = any> {
  status: number
  ok: boolean
  text: string
  json: T
  headers: Headers
}
export function requestJson<T = any>(url: string, opts?: JsonRequest): Promise<JsonResponse<T>>
export function requestJsonOk<T = any>(url: string, opts?: JsonRequest): Promise<JsonResponse<T>>
