// Spec 2.5: where the footer's 'Need Help? Contact Us' link is hidden — sign-in and authentication
// pages, the contact pages, payment pages and edit pages.

const AUTH = ['/', '/forgotpassword', '/forgotpwdstatus', '/resetpassword', '/createpassword', '/changepassword', '/changetemporarypassword', '/parentregistration', '/signup', '/socialsignin', '/sociallink', '/postlogin', '/sessionexpired', '/invalidurl', '/loginalert'];
const CONTACT = ['/contactus'];
const PAY = ['/paynow', '/payerinformation', '/paymentreceipt', '/enrollinautopay', '/changeautopay', '/payerinformationautopay', '/paymentreceiptautopay', '/bluepayresponse', '/ezceredirection', '/changeschedule/payerinformation', '/changeschedule/bluepayresponse'];

export function showContactUsLink(path: string): boolean {
  const p = path.replace(/\/+$/, '') || '/';
  if (AUTH.includes(p) || CONTACT.includes(p) || PAY.includes(p)) return false;
  if (/^\/[^/]+\/parent$/.test(p)) return false; // provider entry
  // edit pages: /editcontact, /editothercontact, /editchild, /uploadimage ...
  if (/^\/(edit[a-z]*|uploadimage|childmedicalinformation)$/.test(p)) return false;
  return true;
}

/** The security seal shows on the index (sign-in) page. */
export function isIndexPage(path: string): boolean {
  return (path.replace(/\/+$/, '') || '/') === '/';
}
