import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadEvpvImage } from './evpv-image.js';

const dir = mkdtempSync(join(tmpdir(), 'rewardkit-evpv-'));
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
writeFileSync(join(dir, 'a.png'), png);
writeFileSync(join(dir, 'copy.png'), png);
writeFileSync(join(dir, 'facts.json'), JSON.stringify({ facts: { apples: 3 } }));
writeFileSync(join(dir, 'bad.json'), '{"facts": ');
writeFileSync(join(dir, 'notes.txt'), 'x');

describe('loadEvpvImage', () => {
  test('should send a file as a data URL and hash its bytes, whatever its name', async () => {
    const a = await loadEvpvImage('a.png', dir);
    const b = await loadEvpvImage(join(dir, 'copy.png'), '/elsewhere');
    expect(a).toMatchObject({ kind: 'visual', url: `data:image/png;base64,${png.toString('base64')}` });
    expect(a.kind === 'visual' && b.kind === 'visual' && a.hash === b.hash).toBe(true);
  });

  test('should accept a valid data URL and hash the same bytes the same way', async () => {
    const fromUrl = await loadEvpvImage(`data:image/png;base64,${png.toString('base64')}`, dir);
    const fromFile = await loadEvpvImage('a.png', dir);
    expect(fromUrl.kind).toBe('visual');
    expect(fromUrl.kind === 'visual' && fromFile.kind === 'visual' && fromUrl.hash === fromFile.hash).toBe(
      true,
    );
  });

  test('should read symbolic images inline and from .json files', async () => {
    expect(await loadEvpvImage({ facts: { apples: 3 } }, dir)).toMatchObject({ kind: 'symbolic' });
    expect(await loadEvpvImage('facts.json', dir)).toMatchObject({
      kind: 'symbolic',
      image: { facts: { apples: 3 } },
    });
  });

  test('should pass http(s) URLs on unread', async () => {
    expect(await loadEvpvImage('https://example.com/x.png', dir)).toMatchObject({
      kind: 'visual',
      url: 'https://example.com/x.png',
    });
  });

  test.each([
    ['a missing file', 'missing.png', /cannot read image file missing\.png/],
    ['an unknown file type', 'notes.txt', /unsupported type "\.txt"/],
    ['a data URL that is not an image', 'data:text/plain;base64,aGk=', /data:image/],
    ['a data URL with bad base64', 'data:image/png;base64,@@@', /valid base64/],
    ['an empty data URL', 'data:image/png;base64,', /no image bytes/],
    ['a broken .json file', 'bad.json', /is not JSON/],
  ])('should record %s as unreadable', async (_, image, reason) => {
    const got = await loadEvpvImage(image, dir);
    expect(got.kind).toBe('unreadable');
    if (got.kind === 'unreadable') expect(got.reason).toMatch(reason);
  });

  test('should record a symbolic image of the wrong shape as unreadable, naming the field', async () => {
    const got = await loadEvpvImage({ facts: { apples: [1] } }, dir);
    expect(got).toMatchObject({ kind: 'unreadable' });
    if (got.kind === 'unreadable') expect(got.reason).toMatch(/facts\.apples/);
  });
});
