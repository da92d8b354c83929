// The hosted payment page: server-rendered HTML with no JavaScript and no external resource (one inline
// <style>), sent with a Content-Security-Policy that allows nothing else. The card or bank numbers are
// typed here and posted back to the gateway's own origin; a page re-rendered after a bad submit keeps
// what was typed except the card number, the CVV and the account number.
import type { GatewayMethod } from './protocol';
import type { FieldErrors, FieldName } from './outcomes';
import { fill, type PageTexts } from './texts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The origin of an http(s) URL, or null. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * Headers of every page: the CSP lets the form post only to the gateway itself and to the origins the
 * checkout redirects to (a browser checks form-action along the redirect), and allows no script.
 */
export function pageHeaders(redirectUrls: readonly string[] = []): Record<string, string> {
  const origins = [...new Set(redirectUrls.map(originOf).filter((o): o is string => o !== null))];
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      "style-src 'unsafe-inline'",
      `form-action 'self'${origins.map((o) => ` ${o}`).join('')}`,
      'img-src data:',
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

const STYLE = `
:root{color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;background:#eef1f6;color:#1f2937;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;padding:1rem .75rem 2rem}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #d7dce5;border-radius:14px;box-shadow:0 1px 2px rgba(15,23,42,.06),0 12px 32px rgba(15,23,42,.08);padding:1.25rem 1.125rem 1.5rem}
@media (min-width:40rem){body{padding:3rem 1rem}main{padding:2rem 2.25rem 2.25rem}}
.sandbox{margin:0 0 1.25rem;padding:.5rem .75rem;border-radius:8px;background:#fef3c7;color:#713f12;font-size:.875rem;border:1px solid #f59e0b}
.sandbox strong{font-weight:700}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem;color:#111827}
h2{font-size:1.125rem;line-height:1.3;margin:1.5rem 0 .75rem;color:#111827}
.summary{margin:0 0 .5rem;padding:1rem;border-radius:10px;background:#f5f7fb;border:1px solid #e1e6ef}
.summary div{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;padding:.25rem 0}
.summary dt{color:#4b5563;flex:none;max-width:50%}
.summary dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere}
.summary .total{border-top:1px solid #d7dce5;margin-top:.375rem;padding-top:.625rem}
.summary .total dd{font-size:1.5rem;font-weight:700;color:#111827}
.field{margin:0 0 1.125rem}
.field.invalid{border-left:4px solid #b91c1c;padding-left:.75rem}
label,legend{display:block;font-weight:600;margin:0 0 .25rem;padding:0;color:#111827}
.hint{display:block;color:#4b5563;font-size:.9375rem;margin:0 0 .375rem}
.error{display:block;color:#b91c1c;font-weight:600;margin:0 0 .375rem}
input[type=text]{display:block;width:100%;font:inherit;font-size:1.0625rem;line-height:1.4;color:#111827;background:#fff;padding:.625rem .75rem;min-height:2.875rem;border:2px solid #6b7280;border-radius:8px;margin:0}
input[type=text]:focus,input[type=radio]:focus,input[type=checkbox]:focus,button:focus,a:focus{outline:3px solid #1d4ed8;outline-offset:2px}
input[type=text]:focus:not(:focus-visible){outline-offset:0}
input[aria-invalid=true]{border-color:#b91c1c}
.narrow{max-width:11rem}
.pair{display:grid;grid-template-columns:1fr;gap:0 1rem}
@media (min-width:26rem){.pair{grid-template-columns:1fr 1fr}.pair .field{display:flex;flex-direction:column}.pair .field input{margin-top:auto}.pair .narrow{max-width:none}}
fieldset{border:0;margin:0 0 1.125rem;padding:0;min-width:0}
.choice{display:flex;align-items:center;gap:.625rem;min-height:2.75rem;font-weight:400;margin:0}
.save{margin:0 0 1.125rem}
.save .hint{margin:.25rem 0 0 2rem}
.choice input{width:1.375rem;height:1.375rem;margin:0;accent-color:#1d4ed8;flex:none}
.actions{margin-top:1.5rem}
button{display:block;width:100%;font:inherit;font-size:1.125rem;font-weight:700;color:#fff;background:#1d4ed8;border:0;border-radius:8px;padding:.875rem 1rem;min-height:3rem;cursor:pointer}
button:hover{background:#1e40af}
.cancel{display:block;text-align:center;margin:1rem 0 0;color:#1d4ed8;font-weight:600;text-underline-offset:.2em}
.cancel:hover{color:#1e3a8a}
.privacy{margin:1.25rem 0 0;font-size:.875rem;color:#4b5563}
.authorisation{margin:1rem 0 0;font-size:.875rem;color:#374151}
.problem{border:3px solid #b91c1c;border-radius:10px;padding:.875rem 1rem;margin:0 0 1.25rem}
.problem h2{margin:0 0 .5rem;font-size:1.125rem}
.problem ul{margin:0;padding-left:1.25rem}
.problem li{margin:.25rem 0}
.problem a{color:#b91c1c;font-weight:600}
.notice p{margin:0 0 1rem}
.notice .cancel{text-align:left}
.vh{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
`;

function document(lang: string, title: string, main: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}

export interface PaymentPageModel {
  texts: PageTexts;
  method: GatewayMethod;
  merchantName: string;
  /** formatted for the locale and currency */
  amountText: string;
  payerName: string;
  /** where the form posts (the gateway's own /pay/:checkoutId) */
  actionPath: string;
  /** the gateway's /pay/:checkoutId/cancel */
  cancelPath: string;
  /** the checkout offers "save for later" */
  offerSave?: boolean;
  /** the method is kept for automatic payments: said, not offered */
  saveRequired?: boolean;
  /** what is kept from a bad submit (never the card number, CVV or account number) */
  values: { name?: string; expiry?: string; routing?: string; accountType?: string; save?: boolean };
  errors: FieldErrors;
}

const INPUT_IDS: Record<FieldName, string> = {
  name: 'holder-name',
  number: 'card-number',
  expiry: 'card-expiry',
  cvv: 'card-cvv',
  routing: 'routing-number',
  account: 'account-number',
  accountType: 'account-type-checking',
};

interface InputSpec {
  field: FieldName;
  label: string;
  hint?: string;
  value?: string;
  autocomplete: string;
  numeric?: boolean;
  maxLength: number;
  extraClass?: string;
}

function input(spec: InputSpec, m: PaymentPageModel): string {
  const id = INPUT_IDS[spec.field];
  const error = m.errors[spec.field];
  const describedBy = [error ? `${id}-error` : '', spec.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const attrs = [
    `type="text"`,
    `id="${id}"`,
    `name="${spec.field}"`,
    `autocomplete="${spec.autocomplete}"`,
    spec.numeric ? `inputmode="numeric" spellcheck="false" autocapitalize="off"` : `spellcheck="false"`,
    `maxlength="${spec.maxLength}"`,
    'required',
    describedBy ? `aria-describedby="${describedBy}"` : '',
    error ? `aria-invalid="true"` : '',
    spec.value ? `value="${escapeHtml(spec.value)}"` : '',
    spec.extraClass ? `class="${spec.extraClass}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `<div class="field${error ? ' invalid' : ''}">
<label for="${id}">${escapeHtml(spec.label)}</label>
${spec.hint ? `<span class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</span>` : ''}
${error ? `<span class="error" id="${id}-error"><span class="vh">${escapeHtml(m.texts.errorPrefix)} </span>${escapeHtml(m.texts.errors[error])}</span>` : ''}
<input ${attrs}>
</div>`;
}

function cardFields(m: PaymentPageModel): string {
  const t = m.texts;
  return [
    input({ field: 'name', label: t.cardName, value: m.values.name ?? m.payerName, autocomplete: 'cc-name', maxLength: 200 }, m),
    input({ field: 'number', label: t.cardNumber, autocomplete: 'cc-number', numeric: true, maxLength: 23 }, m),
    `<div class="pair">`,
    input({ field: 'expiry', label: t.expiry, hint: t.expiryHint, value: m.values.expiry, autocomplete: 'cc-exp', numeric: true, maxLength: 7, extraClass: 'narrow' }, m),
    input({ field: 'cvv', label: t.cvv, hint: t.cvvHint, autocomplete: 'cc-csc', numeric: true, maxLength: 4, extraClass: 'narrow' }, m),
    `</div>`,
  ].join('\n');
}

function bankFields(m: PaymentPageModel): string {
  const t = m.texts;
  const typeError = m.errors.accountType;
  const checked = (v: string) => (m.values.accountType === v ? ' checked' : '');
  const radioAttrs = `name="accountType" required${typeError ? ` aria-describedby="account-type-error" aria-invalid="true"` : ''}`;
  return [
    input({ field: 'name', label: t.bankName, value: m.values.name ?? m.payerName, autocomplete: 'name', maxLength: 200 }, m),
    input({ field: 'routing', label: t.routing, hint: t.routingHint, value: m.values.routing, autocomplete: 'off', numeric: true, maxLength: 11, extraClass: 'narrow' }, m),
    input({ field: 'account', label: t.account, hint: t.accountHint, autocomplete: 'off', numeric: true, maxLength: 21 }, m),
    `<fieldset class="field${typeError ? ' invalid' : ''}">
<legend>${escapeHtml(t.accountType)}</legend>
${typeError ? `<span class="error" id="account-type-error"><span class="vh">${escapeHtml(t.errorPrefix)} </span>${escapeHtml(t.errors[typeError])}</span>` : ''}
<label class="choice" for="account-type-checking"><input type="radio" id="account-type-checking" value="checking" ${radioAttrs}${checked('checking')}> ${escapeHtml(t.checking)}</label>
<label class="choice" for="account-type-savings"><input type="radio" id="account-type-savings" value="savings" ${radioAttrs}${checked('savings')}> ${escapeHtml(t.savings)}</label>
</fieldset>`,
  ].join('\n');
}

function saveChoice(m: PaymentPageModel): string {
  if (!m.offerSave) return '';
  const t = m.texts;
  const vars = { merchant: m.merchantName };
  if (m.saveRequired) {
    return `<div class="save">
<p id="save-method-note">${escapeHtml(fill(m.method === 'CARD' ? t.saveRequiredCard : t.saveRequiredBank, vars))}</p>
<span class="hint">${escapeHtml(fill(t.saveHint, vars))}</span>
</div>`;
  }
  return `<div class="save">
<label class="choice" for="save-method"><input type="checkbox" id="save-method" name="saveMethod" value="1" aria-describedby="save-method-hint"${m.values.save ? ' checked' : ''}> ${escapeHtml(fill(m.method === 'CARD' ? t.saveCard : t.saveBank, vars))}</label>
<span class="hint" id="save-method-hint">${escapeHtml(fill(t.saveHint, vars))}</span>
</div>`;
}

/** The order fields appear in, for the error summary. */
const FIELD_ORDER: FieldName[] = ['name', 'number', 'expiry', 'cvv', 'routing', 'account', 'accountType'];

function errorSummary(m: PaymentPageModel): string {
  const fields = FIELD_ORDER.filter((f) => m.errors[f]);
  if (fields.length === 0) return '';
  const items = fields.map((f) => `<li><a href="#${INPUT_IDS[f]}">${escapeHtml(m.texts.errors[m.errors[f]!])}</a></li>`).join('\n');
  return `<div class="problem" role="alert" aria-labelledby="problem-title">
<h2 id="problem-title">${escapeHtml(m.texts.errorSummary)}</h2>
<ul>
${items}
</ul>
</div>`;
}

export function renderPaymentPage(m: PaymentPageModel): string {
  const t = m.texts;
  const merchant = m.merchantName;
  const body = `<p class="sandbox">${escapeHtml(t.testMode)}</p>
<h1>${escapeHtml(t.heading)}</h1>
${errorSummary(m)}
<dl class="summary">
<div><dt>${escapeHtml(t.payTo)}</dt><dd>${escapeHtml(merchant)}</dd></div>
${m.payerName ? `<div><dt>${escapeHtml(t.payer)}</dt><dd>${escapeHtml(m.payerName)}</dd></div>` : ''}
<div class="total"><dt>${escapeHtml(t.amount)}</dt><dd>${escapeHtml(m.amountText)}</dd></div>
</dl>
<form method="post" action="${escapeHtml(m.actionPath)}" accept-charset="utf-8">
<h2>${escapeHtml(m.method === 'CARD' ? t.cardDetails : t.bankDetails)}</h2>
${m.method === 'CARD' ? cardFields(m) : bankFields(m)}
${saveChoice(m)}
${m.method === 'BANK' ? `<p class="authorisation" id="debit-authorisation">${escapeHtml(fill(t.debitAuthorisation, { merchant, amount: m.amountText }))}</p>` : ''}
<div class="actions">
<button type="submit">${escapeHtml(fill(t.pay, { amount: m.amountText }))}</button>
<a class="cancel" href="${escapeHtml(m.cancelPath)}">${escapeHtml(fill(t.cancel, { merchant }))}</a>
</div>
</form>
<p class="privacy">${escapeHtml(fill(t.privacy, { merchant }))}</p>`;
  return document(t.lang, `${t.heading} – ${merchant}`, body);
}

/** A short page instead of the form (an expired checkout, an unknown link). */
export function renderNoticePage(n: { texts: PageTexts; title: string; body: string; link?: { href: string; text: string } }): string {
  const body = `<div class="notice">
<h1>${escapeHtml(n.title)}</h1>
<p>${escapeHtml(n.body)}</p>
${n.link ? `<p><a class="cancel" href="${escapeHtml(n.link.href)}">${escapeHtml(n.link.text)}</a></p>` : ''}
</div>`;
  return document(n.texts.lang, n.title, body);
}
