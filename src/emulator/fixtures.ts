import type { Product } from "./types"

export interface BankGroup {
  id: number
  name: string
}

export interface BankAccount {
  bta_id: number
  bta_name: string
  bta_fullname: string
  bta_iban: string
  bta_description: string
  group_id: number
}

export const BANK_GROUPS: BankGroup[] = [
  { id: 1, name: "Bankalar" },
  { id: 2, name: "Katılım Bankaları" },
]

export const BANK_ACCOUNTS: BankAccount[] = [
  {
    bta_id: 11,
    group_id: 1,
    bta_name: "Türkiye İş Bankası",
    bta_fullname: "Ödeme Teknoloji A.Ş.",
    bta_iban: "TR12 0006 4000 0011 2345 6789 01",
    bta_description: "Açıklama alanına yalnızca sipariş numaranızı yazınız.",
  },
  {
    bta_id: 12,
    group_id: 1,
    bta_name: "Garanti BBVA",
    bta_fullname: "Ödeme Teknoloji A.Ş.",
    bta_iban: "TR33 0006 2000 4440 0006 2986 57",
    bta_description: "Havale/EFT açıklamasına sipariş numaranızı ekleyiniz.",
  },
  {
    bta_id: 13,
    group_id: 1,
    bta_name: "Akbank",
    bta_fullname: "Ödeme Teknoloji A.Ş.",
    bta_iban: "TR59 0004 6007 8888 8000 1234 56",
    bta_description: "Gönderen adı, siparişteki ad soyad ile aynı olmalıdır.",
  },
  {
    bta_id: 21,
    group_id: 2,
    bta_name: "Kuveyt Türk Katılım Bankası",
    bta_fullname: "Ödeme Teknoloji A.Ş.",
    bta_iban: "TR46 0020 5000 0093 4567 8000 01",
    bta_description: "Açıklama alanına sipariş numaranızı yazınız.",
  },
  {
    bta_id: 22,
    group_id: 2,
    bta_name: "Albaraka Türk Katılım Bankası",
    bta_fullname: "Ödeme Teknoloji A.Ş.",
    bta_iban: "TR71 0020 3000 0889 7766 5500 02",
    bta_description: "FAST ile gönderim anında onaylanır; açıklamaya sipariş numarası yazınız.",
  },
]

export function publicBank(b: BankAccount): Omit<BankAccount, "group_id"> {
  const { group_id: _g, ...rest } = b
  return rest
}

export const DEFAULT_PRODUCTS: Product[] = [{ slug: "demo-urun", id: 1, name: "Demo Ürün", price: "150.00", currency: "TRY" }]

export const DEFAULT_RATES: Record<string, string> = { TRY: "1", USD: "40.00", EUR: "45.00", GBP: "52.00" }

/** Readable failure texts (redirect `message`), Turkish and English like the service's pages. */
export const MESSAGES = {
  reject: "3D Secure doğrulaması başarısız / 3D Secure authentication failed",
  insufficient: "Yetersiz bakiye / Insufficient balance",
  transferRejected: "Havale/EFT onaylanmadı / Bank transfer was not approved",
  cardFailed: "Ödeme başarısız / Payment failed",
}
