import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readSkillFiles } from './read-skill-files.js';
import { writeSkillFiles } from './write-skill-files.js';

function sourceSkill(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-skill-'));
  mkdirSync(join(dir, 'references'));
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: a\ndescription: A.\n---\nbody\n');
  writeFileSync(join(dir, 'references/old.md'), '# Old\n');
  writeFileSync(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0xff, 0x00, 0xfe]));
  writeFileSync(join(dir, '.git/HEAD'), 'ref\n');
  return dir;
}

describe('writeSkillFiles', () => {
  test('should write the edited files to a new directory and leave the source as it was', () => {
    const source = sourceSkill();
    const files = new Map(readSkillFiles(source));
    files.set('SKILL.md', '---\nname: a\ndescription: A.\n---\nbody, edited\n');
    files.delete('references/old.md');
    files.set('references/new.md', '# New\n');
    const out = join(mkdtempSync(join(tmpdir(), 'rewardkit-out-')), 'edited');
    writeSkillFiles(source, files, out);
    expect(readFileSync(join(out, 'SKILL.md'), 'utf8')).toContain('body, edited');
    expect(readdirSync(join(out, 'references'))).toEqual(['new.md']);
    expect(readFileSync(join(out, 'logo.png'))).toEqual(Buffer.from([0x89, 0x50, 0xff, 0x00, 0xfe]));
    expect(readdirSync(out)).not.toContain('.git');
    expect(readFileSync(join(source, 'SKILL.md'), 'utf8')).toContain('body\n');
    expect(readdirSync(join(source, 'references'))).toEqual(['old.md']);
  });

  test('should refuse the source itself, a folder inside it, and a non-empty directory', () => {
    const source = sourceSkill();
    const files = readSkillFiles(source);
    expect(() => writeSkillFiles(source, files, source)).toThrow(/overlaps the skill/);
    expect(() => writeSkillFiles(source, files, join(source, 'references'))).toThrow(/overlaps the skill/);
    expect(() => writeSkillFiles(source, files, sourceSkill())).toThrow(/not an empty directory/);
  });
});
