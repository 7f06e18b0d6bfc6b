// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FileThumbnail } from './file-thumbnail';

/** The one way the console shows an attachment's image: the server's thumbnail, the SVG itself, a fallback when refused. */
describe('FileThumbnail', () => {
  afterEach(cleanup);
  const photo = { path: '/s1/3f2a9c0e5b7d41e8a6c2f0b9d8e7a615-harbour.jpg', type: 'image/jpeg' };

  it("shows the server's thumbnail, lazily, with the next size for 2× screens", () => {
    render(<FileThumbnail tid={4} rid={1} fieldId="photos" file={photo} size={256} className="gallery-image" alt="harbour.jpg" />);
    const image = screen.getByRole('img', { name: 'harbour.jpg' });
    const src = new URL(image.getAttribute('src')!, 'http://console');
    expect(src.pathname).toBe('/api/table/4/record/1/files/thumbnail');
    expect(Object.fromEntries(src.searchParams)).toEqual({ field_id: 'photos', path: photo.path, size: '256' });
    expect(image.getAttribute('srcset')).toMatch(/size=256 1x, .*size=512 2x$/);
    expect(image.getAttribute('loading')).toBe('lazy');
  });

  it('a 64-pixel thumbnail has no 2× source; an SVG is shown as itself (the download)', () => {
    render(<FileThumbnail tid={4} rid={1} fieldId="photos" file={photo} size={64} className="file-thumb" alt="small" />);
    expect(screen.getByRole('img', { name: 'small' }).getAttribute('srcset')).toBeNull();
    render(<FileThumbnail tid={4} rid={1} fieldId="photos" file={{ path: '/s1/0a-logo.svg', type: 'image/svg+xml' }} size={256} className="file-preview" alt="logo" />);
    const logo = screen.getByRole('img', { name: 'logo' });
    expect(logo.getAttribute('src')).toContain('/files/download?');
    expect(logo.getAttribute('srcset')).toBeNull();
  });

  it('shows its fallback, not a broken image, when the server has no thumbnail', () => {
    render(<FileThumbnail tid={4} rid={1} fieldId="photos" file={{ path: '/s1/0b-photo.heic', type: 'image/heic' }} size={256} className="gallery-image" alt="photo.heic" fallback={<span>No preview</span>} />);
    fireEvent.error(screen.getByRole('img', { name: 'photo.heic' }));
    expect(screen.queryByRole('img', { name: 'photo.heic' })).toBeNull();
    expect(screen.getByText('No preview')).toBeTruthy();
  });
});
