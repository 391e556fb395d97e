/**
 * Quick Checkout signatures (spec §5.2) computed outside this code base, as
 * the form carries the fields (all strings, amount with two decimals):
 *   canonical: python3 urllib.parse.quote(value, safe="-._~") of each field, sorted by name, joined with "&"
 *   signature: printf %s '<canonical>' | openssl dgst -sha256 -hmac '<key>'   (Python's hmac gives the same)
 * The first three are the vectors of src/client/__tests__/signature.unit.spec.ts
 * written as the form sends them; the last signs a present but empty description.
 */
export interface SignatureVector {
  name: string
  key: string
  form: Record<"api_id" | "amount" | "currency" | "description" | "order_id" | "success_url" | "cancel_url" | "ts", string>
  canonical: string
  signature: string
}

export const SIGNATURE_VECTORS: SignatureVector[] = [
  {
    name: "plain fields, lower-case currency",
    key: "test_key_123",
    form: {
      api_id: "1001",
      amount: "200.00",
      currency: "try",
      description: "Order 1",
      order_id: "payses_01",
      success_url: "https://shop.example/ok",
      cancel_url: "https://shop.example/cancel",
      ts: "1700000000",
    },
    canonical:
      "amount=200.00&api_id=1001&cancel_url=https%3A%2F%2Fshop.example%2Fcancel&currency=TRY&description=Order%201&order_id=payses_01&success_url=https%3A%2F%2Fshop.example%2Fok&ts=1700000000",
    signature: "977e08d3131109f8c65d60f94e35ee13011d6070ab261d3ca8b093c5947374f5",
  },
  {
    name: "reserved characters in values and key",
    key: "sk_sandbox_!*'()",
    form: {
      api_id: "7",
      amount: "1234.50",
      currency: "EUR",
      description: "Kahve & çay (2*) it's ~ok +/ 100%",
      order_id: "ord+1/2~a*b",
      success_url: "https://shop.example/return?x=1&y=a b",
      cancel_url: "https://shop.example/c#frag",
      ts: "1763769600",
    },
    canonical:
      "amount=1234.50&api_id=7&cancel_url=https%3A%2F%2Fshop.example%2Fc%23frag&currency=EUR&description=Kahve%20%26%20%C3%A7ay%20%282%2A%29%20it%27s%20~ok%20%2B%2F%20100%25&order_id=ord%2B1%2F2~a%2Ab&success_url=https%3A%2F%2Fshop.example%2Freturn%3Fx%3D1%26y%3Da%20b&ts=1763769600",
    signature: "ff9fa81bd1c55cba362a0943cfbfb08c8077c728796ce5dac9d5b3b591d110e4",
  },
  {
    name: "Turkish letters in values and key",
    key: "anahtar-İ",
    form: {
      api_id: "42",
      amount: "0.10",
      currency: "usd",
      description: "Çiğdem Işık Öğüş ğüşiöç İstanbul",
      order_id: "sipariş-ÜĞ",
      success_url: "https://mağaza.example/başarılı",
      cancel_url: "https://mağaza.example/iptal",
      ts: "1800000000",
    },
    canonical:
      "amount=0.10&api_id=42&cancel_url=https%3A%2F%2Fma%C4%9Faza.example%2Fiptal&currency=USD&description=%C3%87i%C4%9Fdem%20I%C5%9F%C4%B1k%20%C3%96%C4%9F%C3%BC%C5%9F%20%C4%9F%C3%BC%C5%9Fi%C3%B6%C3%A7%20%C4%B0stanbul&order_id=sipari%C5%9F-%C3%9C%C4%9E&success_url=https%3A%2F%2Fma%C4%9Faza.example%2Fba%C5%9Far%C4%B1l%C4%B1&ts=1800000000",
    signature: "262fde7b7ae82369932e08059f052e18b445102792a7047c9304f914aba64e12",
  },
  {
    name: "empty description, unreserved and 4-byte characters, a key with spaces",
    key: "key with spaces & 😀",
    form: {
      api_id: "9",
      amount: "1000000.05",
      currency: "GBP",
      description: "",
      order_id: "A-b_c.d~e!f'g(h)i*j k😀☕",
      success_url: "https://x.example/s?a=b+c",
      cancel_url: "https://x.example/c",
      ts: "1700000123",
    },
    canonical:
      "amount=1000000.05&api_id=9&cancel_url=https%3A%2F%2Fx.example%2Fc&currency=GBP&description=&order_id=A-b_c.d~e%21f%27g%28h%29i%2Aj%20k%F0%9F%98%80%E2%98%95&success_url=https%3A%2F%2Fx.example%2Fs%3Fa%3Db%2Bc&ts=1700000123",
    signature: "373dffb633cbde0324dd8fd65f628d867dab52b541ca4e193a14f10dc898e43b",
  },
]
