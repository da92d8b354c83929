import { describe, expect, it } from 'vitest';
import { isIndexPage, showContactUsLink } from '../../../src/shell/footerRules';

describe("footer 'Need Help? Contact Us' link", () => {
  it.each(['/', '/forgotpassword', '/changepassword', '/contactus', '/paynow', '/payerinformation', '/editchild', '/editcontact', '/editothercontact', '/brightpath/parent', '/changeschedule/payerinformation'])(
    'is hidden on %s',
    (p) => expect(showContactUsLink(p)).toBe(false),
  );
  it.each(['/home', '/myaccount', '/bulletin', '/programlist', '/viewstatement', '/home/'])('shows on %s', (p) => expect(showContactUsLink(p)).toBe(true));
  it('the seal belongs to the index page only', () => {
    expect(isIndexPage('/')).toBe(true);
    expect(isIndexPage('')).toBe(true);
    expect(isIndexPage('/home')).toBe(false);
  });
});
