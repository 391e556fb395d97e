import {
  ODEME_ERROR_CODES,
  ODEME_FAILURE_REASONS,
  isOdemeFailureCode,
  odemeErrorMessages,
  odemeFailureMessage,
  odemeNotCompletedMessages,
  odemeReasonMessages,
  odemeReturnFailure,
  odemeShopperReference,
  odemeWaitingMessages,
  odemeWaitingText,
  parseOdemeReturnParams,
  type OdemeLanguage,
  type OdemeWaitPhase,
} from ".."

const LANGUAGES: OdemeLanguage[] = ["tr", "en"]
const PHASES: OdemeWaitPhase[] = ["checking", "placing", "confirming"]
const INTERNAL_ID = /payses_|pay_col_|cart_|order_/

describe("odemeWaitingText", () => {
  it("has every word in both languages, none empty, the same keys", () => {
    expect(Object.keys(odemeWaitingMessages.tr).sort()).toEqual(Object.keys(odemeWaitingMessages.en).sort())
    for (const language of LANGUAGES) for (const text of Object.values(odemeWaitingMessages[language])) expect(text.trim()).not.toBe("")
  })

  it("says what happens next in each phase, with a way back to the shop and the cart", () => {
    for (const language of LANGUAGES)
      for (const phase of PHASES) {
        const text = odemeWaitingText(phase, language)
        expect(text.title).toBe(odemeWaitingMessages[language][phase])
        expect(text.next.length).toBeGreaterThan(0)
        expect(text.backToShop).toBe(odemeWaitingMessages[language].backToShop)
        expect(text.backToCart).toBe(odemeWaitingMessages[language].backToCart)
        expect(text.amountLabel).toBe(odemeWaitingMessages[language].amount)
      }
  })

  it("after the wait, tells the shopper not to pay again and to check later", () => {
    for (const language of LANGUAGES) {
      const m = odemeWaitingMessages[language]
      expect(odemeWaitingText("confirming", language).next).toEqual([m.confirmingNext, m.checkLater, m.doNotPayAgain])
      // While it still asks, the page promises the order page, not a later check.
      expect(odemeWaitingText("checking", language).next).toEqual([m.checkingNext])
    }
  })

  it("promises an e-mail only where the store says it sends e-mail", () => {
    const email = /e-posta|e-mail/i
    for (const language of LANGUAGES) {
      for (const phase of PHASES) {
        expect(odemeWaitingText(phase, language).next.join(" ")).not.toMatch(email)
        expect(odemeWaitingText(phase, language, { storeSendsEmail: false }).next.join(" ")).not.toMatch(email)
      }
      const withEmail = odemeWaitingText("confirming", language, { storeSendsEmail: true }).next
      expect(withEmail).toContain(odemeWaitingMessages[language].emailFollows)
      expect(withEmail.join(" ")).toMatch(email)
    }
  })
})

describe("odemeShopperReference", () => {
  it("shows the payment's short reference before there is an order, and the order number once there is one", () => {
    const status = { reference: "payses_01JABCDEFGHJKMNPQRSTVWXYZ0", shopper_reference: "OD-7K3F9Q" }
    expect(odemeShopperReference({ status }, "tr")).toEqual({ label: "Ödeme referansı", value: "OD-7K3F9Q" })
    expect(odemeShopperReference({ status }, "en")).toEqual({ label: "Payment reference", value: "OD-7K3F9Q" })
    expect(odemeShopperReference({ orderDisplayId: 12, status }, "en")).toEqual({ label: "Order number", value: "#12" })
    expect(odemeShopperReference({ status: { ...status, shopper_reference: "payses_01JABC" } }, "tr")).toBeNull()
    expect(odemeShopperReference({ status: { ...status, shopper_reference: null } }, "tr")).toBeNull()
  })

  it("is the order number once there is an order, labelled in the page's language", () => {
    expect(odemeShopperReference({ orderDisplayId: 1234 }, "tr")).toEqual({ label: "Sipariş no", value: "#1234" })
    expect(odemeShopperReference({ orderDisplayId: "7" }, "en")).toEqual({ label: "Order number", value: "#7" })
  })

  it("is nothing without an order, and never an internal id passed in its place", () => {
    expect(odemeShopperReference({}, "tr")).toBeNull()
    // The status route's reference is the session id: not for the shopper.
    expect(odemeShopperReference({ status: { reference: "payses_01JABCDEFGHJKMNPQRSTVWXYZ0", status: "pending" } }, "tr")).toBeNull()
    expect(odemeShopperReference({ orderDisplayId: 12, status: { reference: "payses_01JABC" } }, "en")).toEqual({
      label: "Order number",
      value: "#12",
    })
    expect(odemeShopperReference({ orderDisplayId: null }, "tr")).toBeNull()
    for (const id of ["order_01JABCDEFGHJKMNPQRSTVWXYZ0", "payses_01JABC", "cart_01JABC", "", "0", "12a", "-3"]) {
      expect(odemeShopperReference({ orderDisplayId: id }, "en")).toBeNull()
    }
  })
})

describe("failure codes", () => {
  it("know every reason, the cancel return and every error code, and nothing else", () => {
    for (const code of [...ODEME_FAILURE_REASONS, "not_completed", ...ODEME_ERROR_CODES]) expect(isOdemeFailureCode(code)).toBe(true)
    for (const other of ["", "paid", "3D Secure doğrulaması", "odeme.nope", null, 3]) expect(isOdemeFailureCode(other)).toBe(false)
  })

  it("read as the plugin's text in the asked language", () => {
    for (const language of LANGUAGES) {
      for (const reason of ODEME_FAILURE_REASONS) expect(odemeFailureMessage(reason, language)).toBe(odemeReasonMessages[reason][language])
      expect(odemeFailureMessage("not_completed", language)).toBe(odemeNotCompletedMessages[language])
      for (const code of ODEME_ERROR_CODES) expect(odemeFailureMessage(code, language)).toBe(odemeErrorMessages[code][language])
    }
    expect(odemeFailureMessage("authentication_failed", "tr")).not.toBe(odemeFailureMessage("authentication_failed", "en"))
  })

  it("never echo what is not a code: free text and unknown codes read as a plain decline", () => {
    for (const text of ["3D Secure doğrulaması başarısız", "<b>pay here</b>", undefined, null]) {
      expect(odemeFailureMessage(text, "tr")).toBe(odemeReasonMessages.declined.tr)
    }
  })

  it("are what the return redirect says: its reason, a decline without one, the cancel return; none otherwise", () => {
    const of = (query: string) => odemeReturnFailure(parseOdemeReturnParams(new URLSearchParams(query))!)
    expect(of("status=failed&session_id=payses_1&reason=insufficient_funds")).toBe("insufficient_funds")
    expect(of("status=failed&session_id=payses_1")).toBe("declined")
    expect(of("status=failed&session_id=payses_1&reason=made_up")).toBe("declined")
    expect(of("status=pending&session_id=payses_1&returned=cancel")).toBe("not_completed")
    expect(of("status=pending&session_id=payses_1")).toBeNull()
    expect(of("status=paid&session_id=payses_1&returned=cancel")).toBeNull()
  })
})

it("no waiting or failure text names an internal id", () => {
  for (const language of LANGUAGES) {
    for (const text of Object.values(odemeWaitingMessages[language])) expect(text).not.toMatch(INTERNAL_ID)
  }
})
