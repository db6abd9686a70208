import { describe, expect, it } from "vitest";

import { formatPhone, formatPhonePartial, maskPhone, parsePhone, phoneSchema, smsValidateSchema } from "./phone";

describe("Brazilian mobile phone", () => {
  it.each([
    ["+55 11 91234-5678", "5511912345678"],
    ["5511912345678", "5511912345678"],
    ["(11) 91234-5678", "5511912345678"],
    ["11912345678", "5511912345678"],
    ["0055 21 98765 4321", "5521987654321"],
    ["+55 (55) 99999-0000", "5555999990000"],
  ])("%s → %s", (input, digits) => {
    expect(parsePhone(input)).toEqual({ digits });
  });

  it.each([
    ["", "required"],
    ["1234", "length"],
    ["+1 415 555 0100", "country"],
    ["+351 912 345 678", "country"],
    ["+55 20 91234-5678", "area_code"],
    ["+55 11 3123-4567", "not_mobile"],
    ["+55 11 81234-5678", "not_mobile"],
    // Hostile or malformed: refused, never stripped down to digits.
    ["\r\nX: y 11912345678", "characters"],
    ["11912345678\r\nBcc: x@y.z", "characters"],
    ["<script>alert(1)</script>11912345678", "characters"],
    ["<b>11</b> 91234-5678", "characters"],
    ["11 9123a-5678", "characters"],
    ["+55 11 91234\t5678", "characters"],
    ["１１９１２３４５６７８", "characters"],
    ["+55 1)1 9(1234-5678", "format"],
    ["5+5 11 91234-5678", "format"],
    ["+55 11 91234--5678", "format"],
    ["++55 11 91234-5678", "format"],
  ])("%j is refused (%s)", (input, problem) => {
    expect(parsePhone(input)).toEqual({ problem });
  });

  it("formats, formats while typing and masks", () => {
    expect(formatPhone("5511912345678")).toBe("+55 11 91234-5678");
    expect(formatPhone("abc")).toBe("abc");
    expect(formatPhonePartial("+5511912")).toBe("+55 11 912");
    expect(formatPhonePartial("+55")).toBe("+55");
    expect(formatPhonePartial("1191234567")).toBe("11 91234-567");
    expect(formatPhonePartial("+55119123456789999")).toBe("+55 11 91234-5678");
    expect(maskPhone("+55 11 91234-5678")).toBe("+55 11 *****-5678");
  });

  it("schemas yield digits and name the field", () => {
    expect(phoneSchema.parse("+55 11 91234-5678")).toBe("5511912345678");
    expect(smsValidateSchema.parse({ phone: "11912345678", code: " 123 456 " })).toEqual({ phone: "5511912345678", code: "123456" });
    const failed = smsValidateSchema.safeParse({ phone: "+55 11 3123-4567", code: "" });
    expect(failed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["phone", "code"]);
  });
});
