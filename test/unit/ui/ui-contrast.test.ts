/**
 * The stylesheet's colours, read from the CSS the page is served (both themes), at a contrast of at least
 * 4.5:1 for every text colour on every background it is drawn on.
 */
import { describe, expect, it } from 'vitest';
import { CONTRAST_PAIRS, UI_CSS } from '../../../src/ui/ui-css.js';
import { contrastRatio } from '../../support/contrast.js';

/** The custom properties of the first `:root{...}` after `from` in the stylesheet. */
function themeAt(from: number): Map<string, string> {
  const start = UI_CSS.indexOf(':root{', from);
  const body = UI_CSS.slice(start + ':root{'.length, UI_CSS.indexOf('}', start));
  return new Map([...body.matchAll(/--([\w-]+):(#[0-9a-f]{3,6})/gi)].map((m) => [m[1]!, m[2]!]));
}

describe('the stylesheet of recall ui', () => {
  const themes = { light: themeAt(0), dark: themeAt(UI_CSS.indexOf('prefers-color-scheme: dark')) };

  it('has a dark theme chosen by prefers-color-scheme', () => {
    expect(UI_CSS).toMatch(/@media \(prefers-color-scheme: dark\)\{:root\{color-scheme:dark;/);
    expect(themes.dark.get('bg')).not.toBe(themes.light.get('bg'));
  });

  for (const [name, theme] of Object.entries(themes)) {
    it(`draws text at 4.5:1 or more in the ${name} theme`, () => {
      for (const [fg, bg] of CONTRAST_PAIRS) {
        const ratio = contrastRatio(theme.get(fg)!, theme.get(bg)!);
        expect(ratio, `${name}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('draws no colour outside the themes (every colour rule uses a variable)', () => {
    const rules = UI_CSS.replace(/:root\{[^}]*\}/g, '');
    expect(rules.match(/#[0-9a-f]{3,6}\b/gi) ?? []).toEqual([]);
  });
});
