// The hosted payment page's texts in English, Spanish, Portuguese (Brazil) and Vietnamese, chosen by
// the checkout's locale (its language part; anything else falls back to English). {merchant} and
// {amount} are filled in by the page (and escaped there).
import type { FieldError } from './outcomes';

export type PageLanguage = 'en' | 'es' | 'pt' | 'vi';

export interface PageTexts {
  lang: PageLanguage;
  heading: string;
  testMode: string;
  payTo: string;
  payer: string;
  amount: string;
  cardDetails: string;
  bankDetails: string;
  cardName: string;
  cardNumber: string;
  expiry: string;
  expiryHint: string;
  cvv: string;
  cvvHint: string;
  bankName: string;
  routing: string;
  routingHint: string;
  account: string;
  accountHint: string;
  accountType: string;
  checking: string;
  savings: string;
  /** {merchant}, {amount}: the debit authorisation shown above Pay on the bank page */
  debitAuthorisation: string;
  /** the save-for-later checkbox of a card page: {merchant} */
  saveCard: string;
  /** the save-for-later checkbox of a bank page (it widens the debit authorisation): {merchant} */
  saveBank: string;
  /** instead of the card checkbox when the card is kept for automatic payments: {merchant} */
  saveRequiredCard: string;
  /** the same for a bank account (it widens the debit authorisation): {merchant} */
  saveRequiredBank: string;
  /** under either checkbox: {merchant} */
  saveHint: string;
  /** the button: {amount} */
  pay: string;
  /** the link back without paying: {merchant} */
  cancel: string;
  /** {merchant} */
  privacy: string;
  errorSummary: string;
  /** read before each field's error by screen readers */
  errorPrefix: string;
  errors: Record<FieldError, string>;
  expiredTitle: string;
  /** {merchant} */
  expiredBody: string;
  /** {merchant} */
  backTo: string;
  cancelledTitle: string;
  /** {merchant} */
  cancelledBody: string;
  notFoundTitle: string;
  notFoundBody: string;
}

const en: PageTexts = {
  lang: 'en',
  heading: 'Secure payment',
  testMode: 'Sandbox test mode: use the test numbers only. No real money is moved.',
  payTo: 'Pay to',
  payer: 'Payer',
  amount: 'Amount',
  cardDetails: 'Card details',
  bankDetails: 'Bank account details',
  cardName: 'Name on card',
  cardNumber: 'Card number',
  expiry: 'Expiry date',
  expiryHint: 'MM/YY, for example 04/29',
  cvv: 'Security code',
  cvvHint: 'The last 3 digits on the back of the card (4 digits on the front for American Express)',
  bankName: 'Account holder name',
  routing: 'Routing number',
  routingHint: '9 digits',
  account: 'Account number',
  accountHint: '4 to 17 digits',
  accountType: 'Account type',
  checking: 'Checking',
  savings: 'Savings',
  debitAuthorisation: 'By selecting Pay, you authorise {merchant} to debit {amount} from this bank account once, on or after today, through the ACH network. The debit can take 3 to 5 business days. To revoke this authorisation, contact {merchant} before the debit is made; you may ask your bank to return a debit you did not authorise.',
  saveCard: 'Save this card for later payments to {merchant}',
  saveBank: 'Save this bank account for later payments to {merchant}, and authorise {merchant} to debit it for each payment I make later',
  saveRequiredCard: 'This card is kept for your automatic payments to {merchant}.',
  saveRequiredBank: 'This bank account is kept for your automatic payments to {merchant}, and you authorise {merchant} to debit it for each of them.',
  saveHint: '{merchant} keeps only the type, the last 4 digits and the name, never the full number. You can remove it at any time.',
  pay: 'Pay {amount}',
  cancel: 'Cancel and go back to {merchant}',
  privacy: 'Your details go only to this payment page. {merchant} never sees your full card or account number.',
  errorSummary: 'There is a problem',
  errorPrefix: 'Error:',
  errors: {
    cardNameRequired: 'Enter the name as it appears on the card',
    bankNameRequired: 'Enter the account holder’s name',
    nameTooLong: 'Enter a name of 200 characters or fewer',
    nameDigits: 'Enter a name, not a number',
    numberRequired: 'Enter the card number',
    numberInvalid: 'Enter a valid card number (13 to 19 digits)',
    expiryRequired: 'Enter the expiry date',
    expiryFormat: 'Enter the expiry date as MM/YY, for example 04/29',
    expiryPast: 'This card has expired: use another card',
    cvvRequired: 'Enter the security code',
    cvvInvalid: 'Enter the 3-digit security code from the back of the card',
    cvvAmex: 'Enter the 4-digit security code from the front of the card',
    routingRequired: 'Enter the routing number',
    routingInvalid: 'Enter a valid 9-digit routing number',
    accountRequired: 'Enter the account number',
    accountInvalid: 'Enter an account number of 4 to 17 digits',
    accountTypeRequired: 'Choose checking or savings',
  },
  expiredTitle: 'This payment page has expired',
  expiredBody: 'No payment was taken. Go back to {merchant} and start the payment again.',
  backTo: 'Go back to {merchant}',
  cancelledTitle: 'This payment was cancelled',
  cancelledBody: 'Nothing was charged on this page. If you still want to pay, go back to {merchant}: a payment started there again, or in another window, has its own page.',
  notFoundTitle: 'Payment page not found',
  notFoundBody: 'This link is not valid. Go back to the portal and start the payment again.',
};

const es: PageTexts = {
  lang: 'es',
  heading: 'Pago seguro',
  testMode: 'Modo de prueba (sandbox): use solo los números de prueba. No se mueve dinero real.',
  payTo: 'Pagar a',
  payer: 'Pagador',
  amount: 'Monto',
  cardDetails: 'Datos de la tarjeta',
  bankDetails: 'Datos de la cuenta bancaria',
  cardName: 'Nombre en la tarjeta',
  cardNumber: 'Número de tarjeta',
  expiry: 'Fecha de vencimiento',
  expiryHint: 'MM/AA, por ejemplo 04/29',
  cvv: 'Código de seguridad',
  cvvHint: 'Los 3 últimos dígitos del reverso de la tarjeta (4 dígitos en el frente para American Express)',
  bankName: 'Nombre del titular de la cuenta',
  routing: 'Número de ruta bancaria',
  routingHint: '9 dígitos',
  account: 'Número de cuenta',
  accountHint: 'De 4 a 17 dígitos',
  accountType: 'Tipo de cuenta',
  checking: 'Cuenta de cheques',
  savings: 'Cuenta de ahorros',
  debitAuthorisation: 'Al seleccionar Pagar, usted autoriza a {merchant} a debitar {amount} de esta cuenta bancaria una sola vez, a partir de hoy, a través de la red ACH. El débito puede tardar de 3 a 5 días hábiles. Para revocar esta autorización, comuníquese con {merchant} antes de que se realice el débito; puede pedir a su banco que devuelva un débito que usted no autorizó.',
  saveCard: 'Guardar esta tarjeta para pagos posteriores a {merchant}',
  saveBank: 'Guardar esta cuenta bancaria para pagos posteriores a {merchant} y autorizar a {merchant} a debitarla por cada pago que yo haga más adelante',
  saveRequiredCard: 'Esta tarjeta se guarda para sus pagos automáticos a {merchant}.',
  saveRequiredBank: 'Esta cuenta bancaria se guarda para sus pagos automáticos a {merchant}, y usted autoriza a {merchant} a debitarla para cada uno de ellos.',
  saveHint: '{merchant} guarda solo el tipo, los últimos 4 dígitos y el nombre, nunca el número completo. Puede eliminarla en cualquier momento.',
  pay: 'Pagar {amount}',
  cancel: 'Cancelar y volver a {merchant}',
  privacy: 'Sus datos se envían solo a esta página de pago. {merchant} nunca ve el número completo de su tarjeta o cuenta.',
  errorSummary: 'Hay un problema',
  errorPrefix: 'Error:',
  errors: {
    cardNameRequired: 'Escriba el nombre tal como aparece en la tarjeta',
    bankNameRequired: 'Escriba el nombre del titular de la cuenta',
    nameTooLong: 'Escriba un nombre de 200 caracteres como máximo',
    nameDigits: 'Escriba un nombre, no un número',
    numberRequired: 'Escriba el número de tarjeta',
    numberInvalid: 'Escriba un número de tarjeta válido (de 13 a 19 dígitos)',
    expiryRequired: 'Escriba la fecha de vencimiento',
    expiryFormat: 'Escriba la fecha de vencimiento como MM/AA, por ejemplo 04/29',
    expiryPast: 'Esta tarjeta está vencida: use otra tarjeta',
    cvvRequired: 'Escriba el código de seguridad',
    cvvInvalid: 'Escriba el código de seguridad de 3 dígitos del reverso de la tarjeta',
    cvvAmex: 'Escriba el código de seguridad de 4 dígitos del frente de la tarjeta',
    routingRequired: 'Escriba el número de ruta bancaria',
    routingInvalid: 'Escriba un número de ruta bancaria válido de 9 dígitos',
    accountRequired: 'Escriba el número de cuenta',
    accountInvalid: 'Escriba un número de cuenta de 4 a 17 dígitos',
    accountTypeRequired: 'Elija cuenta de cheques o cuenta de ahorros',
  },
  expiredTitle: 'Esta página de pago ha vencido',
  expiredBody: 'No se cobró nada. Vuelva a {merchant} y comience el pago de nuevo.',
  backTo: 'Volver a {merchant}',
  cancelledTitle: 'Este pago fue cancelado',
  cancelledBody: 'No se cobró nada en esta página. Si aún desea pagar, vuelva a {merchant}: un pago iniciado allí de nuevo, o en otra ventana, tiene su propia página.',
  notFoundTitle: 'No se encontró la página de pago',
  notFoundBody: 'Este enlace no es válido. Vuelva al portal y comience el pago de nuevo.',
};

const pt: PageTexts = {
  lang: 'pt',
  heading: 'Pagamento seguro',
  testMode: 'Modo de teste (sandbox): use somente os números de teste. Nenhum dinheiro real é movimentado.',
  payTo: 'Pagar a',
  payer: 'Pagador',
  amount: 'Valor',
  cardDetails: 'Dados do cartão',
  bankDetails: 'Dados da conta bancária',
  cardName: 'Nome impresso no cartão',
  cardNumber: 'Número do cartão',
  expiry: 'Data de validade',
  expiryHint: 'MM/AA, por exemplo 04/29',
  cvv: 'Código de segurança',
  cvvHint: 'Os 3 últimos dígitos no verso do cartão (4 dígitos na frente para American Express)',
  bankName: 'Nome do titular da conta',
  routing: 'Número de roteamento bancário (routing number)',
  routingHint: '9 dígitos',
  account: 'Número da conta',
  accountHint: 'De 4 a 17 dígitos',
  accountType: 'Tipo de conta',
  checking: 'Conta corrente',
  savings: 'Conta poupança',
  debitAuthorisation: 'Ao selecionar Pagar, você autoriza {merchant} a debitar {amount} desta conta bancária uma única vez, a partir de hoje, pela rede ACH. O débito pode levar de 3 a 5 dias úteis. Para revogar esta autorização, entre em contato com {merchant} antes que o débito seja feito; você pode pedir ao seu banco que devolva um débito que não autorizou.',
  saveCard: 'Salvar este cartão para pagamentos futuros a {merchant}',
  saveBank: 'Salvar esta conta bancária para pagamentos futuros a {merchant} e autorizar {merchant} a debitá-la em cada pagamento que eu fizer depois',
  saveRequiredCard: 'Este cartão fica salvo para seus pagamentos automáticos a {merchant}.',
  saveRequiredBank: 'Esta conta bancária fica salva para seus pagamentos automáticos a {merchant}, e você autoriza {merchant} a debitá-la em cada um deles.',
  saveHint: '{merchant} guarda somente o tipo, os 4 últimos dígitos e o nome, nunca o número completo. Você pode removê-lo a qualquer momento.',
  pay: 'Pagar {amount}',
  cancel: 'Cancelar e voltar para {merchant}',
  privacy: 'Seus dados vão somente para esta página de pagamento. {merchant} nunca vê o número completo do seu cartão ou da sua conta.',
  errorSummary: 'Há um problema',
  errorPrefix: 'Erro:',
  errors: {
    cardNameRequired: 'Informe o nome como aparece no cartão',
    bankNameRequired: 'Informe o nome do titular da conta',
    nameTooLong: 'Informe um nome com no máximo 200 caracteres',
    nameDigits: 'Informe um nome, não um número',
    numberRequired: 'Informe o número do cartão',
    numberInvalid: 'Informe um número de cartão válido (de 13 a 19 dígitos)',
    expiryRequired: 'Informe a data de validade',
    expiryFormat: 'Informe a data de validade no formato MM/AA, por exemplo 04/29',
    expiryPast: 'Este cartão está vencido: use outro cartão',
    cvvRequired: 'Informe o código de segurança',
    cvvInvalid: 'Informe o código de segurança de 3 dígitos do verso do cartão',
    cvvAmex: 'Informe o código de segurança de 4 dígitos da frente do cartão',
    routingRequired: 'Informe o número de roteamento bancário',
    routingInvalid: 'Informe um número de roteamento bancário válido, com 9 dígitos',
    accountRequired: 'Informe o número da conta',
    accountInvalid: 'Informe um número de conta de 4 a 17 dígitos',
    accountTypeRequired: 'Escolha conta corrente ou conta poupança',
  },
  expiredTitle: 'Esta página de pagamento expirou',
  expiredBody: 'Nada foi cobrado. Volte para {merchant} e comece o pagamento de novo.',
  backTo: 'Voltar para {merchant}',
  cancelledTitle: 'Este pagamento foi cancelado',
  cancelledBody: 'Nada foi cobrado nesta página. Se ainda quiser pagar, volte para {merchant}: um pagamento iniciado lá de novo, ou em outra janela, tem a sua própria página.',
  notFoundTitle: 'Página de pagamento não encontrada',
  notFoundBody: 'Este link não é válido. Volte ao portal e comece o pagamento de novo.',
};

const vi: PageTexts = {
  lang: 'vi',
  heading: 'Thanh toán an toàn',
  testMode: 'Chế độ thử nghiệm (sandbox): chỉ dùng các số thử nghiệm. Không có tiền thật nào được chuyển.',
  payTo: 'Thanh toán cho',
  payer: 'Người thanh toán',
  amount: 'Số tiền',
  cardDetails: 'Thông tin thẻ',
  bankDetails: 'Thông tin tài khoản ngân hàng',
  cardName: 'Tên in trên thẻ',
  cardNumber: 'Số thẻ',
  expiry: 'Ngày hết hạn',
  expiryHint: 'MM/YY (tháng/năm), ví dụ 04/29',
  cvv: 'Mã bảo mật',
  cvvHint: '3 chữ số cuối ở mặt sau thẻ (4 chữ số ở mặt trước đối với thẻ American Express)',
  bankName: 'Tên chủ tài khoản',
  routing: 'Số định tuyến ngân hàng (routing number)',
  routingHint: 'Gồm 9 chữ số',
  account: 'Số tài khoản',
  accountHint: 'Từ 4 đến 17 chữ số',
  accountType: 'Loại tài khoản',
  checking: 'Tài khoản thanh toán (checking)',
  savings: 'Tài khoản tiết kiệm (savings)',
  debitAuthorisation: 'Khi chọn Thanh toán, quý vị cho phép {merchant} trừ {amount} từ tài khoản ngân hàng này một lần, vào hôm nay hoặc sau đó, qua mạng lưới ACH. Khoản trừ có thể mất 3 đến 5 ngày làm việc. Để thu hồi sự cho phép này, vui lòng liên hệ {merchant} trước khi khoản trừ được thực hiện; quý vị có thể yêu cầu ngân hàng hoàn lại khoản trừ mà quý vị không cho phép.',
  saveCard: 'Lưu thẻ này cho các lần thanh toán sau cho {merchant}',
  saveBank: 'Lưu tài khoản ngân hàng này cho các lần thanh toán sau cho {merchant}, và cho phép {merchant} trừ tiền từ tài khoản này cho mỗi lần tôi thanh toán sau này',
  saveRequiredCard: 'Thẻ này được lưu cho các khoản thanh toán tự động của quý vị cho {merchant}.',
  saveRequiredBank: 'Tài khoản ngân hàng này được lưu cho các khoản thanh toán tự động của quý vị cho {merchant}, và quý vị ủy quyền cho {merchant} ghi nợ tài khoản cho mỗi khoản đó.',
  saveHint: '{merchant} chỉ giữ loại, 4 chữ số cuối và tên, không bao giờ giữ số đầy đủ. Quý vị có thể xóa bất cứ lúc nào.',
  pay: 'Thanh toán {amount}',
  cancel: 'Hủy và quay lại {merchant}',
  privacy: 'Thông tin của quý vị chỉ được gửi đến trang thanh toán này. {merchant} không bao giờ thấy đầy đủ số thẻ hoặc số tài khoản của quý vị.',
  errorSummary: 'Có lỗi cần sửa',
  errorPrefix: 'Lỗi:',
  errors: {
    cardNameRequired: 'Vui lòng nhập tên đúng như in trên thẻ',
    bankNameRequired: 'Vui lòng nhập tên chủ tài khoản',
    nameTooLong: 'Vui lòng nhập tên không quá 200 ký tự',
    nameDigits: 'Vui lòng nhập tên, không phải số',
    numberRequired: 'Vui lòng nhập số thẻ',
    numberInvalid: 'Vui lòng nhập số thẻ hợp lệ (từ 13 đến 19 chữ số)',
    expiryRequired: 'Vui lòng nhập ngày hết hạn',
    expiryFormat: 'Vui lòng nhập ngày hết hạn theo dạng MM/YY, ví dụ 04/29',
    expiryPast: 'Thẻ này đã hết hạn: vui lòng dùng thẻ khác',
    cvvRequired: 'Vui lòng nhập mã bảo mật',
    cvvInvalid: 'Vui lòng nhập mã bảo mật gồm 3 chữ số ở mặt sau thẻ',
    cvvAmex: 'Vui lòng nhập mã bảo mật gồm 4 chữ số ở mặt trước thẻ',
    routingRequired: 'Vui lòng nhập số định tuyến ngân hàng',
    routingInvalid: 'Vui lòng nhập số định tuyến hợp lệ gồm 9 chữ số',
    accountRequired: 'Vui lòng nhập số tài khoản',
    accountInvalid: 'Vui lòng nhập số tài khoản từ 4 đến 17 chữ số',
    accountTypeRequired: 'Vui lòng chọn tài khoản thanh toán hoặc tài khoản tiết kiệm',
  },
  expiredTitle: 'Trang thanh toán này đã hết hạn',
  expiredBody: 'Quý vị chưa bị trừ tiền. Vui lòng quay lại {merchant} và bắt đầu thanh toán lại.',
  backTo: 'Quay lại {merchant}',
  cancelledTitle: 'Khoản thanh toán này đã bị hủy',
  cancelledBody: 'Quý vị chưa bị trừ tiền trên trang này. Nếu quý vị vẫn muốn thanh toán, vui lòng quay lại {merchant}: mỗi lần thanh toán bắt đầu lại ở đó, hoặc trong một cửa sổ khác, có trang riêng.',
  notFoundTitle: 'Không tìm thấy trang thanh toán',
  notFoundBody: 'Đường liên kết này không hợp lệ. Vui lòng quay lại cổng thông tin và bắt đầu thanh toán lại.',
};

export const PAGE_TEXTS: Readonly<Record<PageLanguage, PageTexts>> = { en, es, pt, vi };

/** The page's language for a checkout locale (en, es-US, pt_BR, vi …); English when not one of the four. */
export function pageLanguage(locale: string | undefined): PageLanguage {
  const base = (locale ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return base === 'es' || base === 'pt' || base === 'vi' ? base : 'en';
}

export function textsFor(locale: string | undefined): PageTexts {
  return PAGE_TEXTS[pageLanguage(locale)];
}

/** Fills {name} placeholders (no escaping: the page escapes the result). */
export function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? vars[name] : whole));
}

/**
 * The amount for the page in the page's language, as the merchant's portal writes it: the language's
 * conventions for a dollar amount (`<lang>-US`), the narrow symbol $ for US and Canadian dollars.
 */
export function formatAmount(amountCents: number, currency: string, locale: string | undefined): string {
  const lang = pageLanguage(locale);
  try {
    return new Intl.NumberFormat(`${lang}-US`, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(amountCents / 100);
  } catch {
    return `${(amountCents / 100).toFixed(2)} ${currency}`;
  }
}
