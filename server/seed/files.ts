// Small real files for the demo: PDFs made with pdfkit, and plain text / CSV attachments.
import PDFDocument from 'pdfkit';

export function makePdf(title: string, organisation: string, paragraphs: string[]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // a fixed creation date keeps the seeded files identical from run to run
    const doc = new PDFDocument({ size: 'LETTER', margin: 56, info: { Title: title, Author: organisation, CreationDate: new Date(Date.UTC(2026, 0, 1)) } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    doc.fontSize(10).fillColor('#555555').text(organisation);
    doc.moveDown(0.5);
    doc.fontSize(18).fillColor('#000000').text(title);
    doc.moveDown();
    doc.fontSize(11);
    for (const p of paragraphs) {
      doc.text(p, { align: 'left' });
      doc.moveDown(0.7);
    }
    doc.moveDown();
    doc.fontSize(11).text('Parent / guardian name: ______________________________');
    doc.moveDown(0.7);
    doc.text('Signature: ______________________________   Date: ____________');
    doc.end();
  });
}

export const text = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
