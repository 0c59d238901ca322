/* Debian's Chromium, headless, as every browser test and benchmark here starts it (driven by playwright-core):
 * a fresh profile in a temporary folder, nothing fetched in the background. */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** A browser context on a new profile, and the profile's folder (for the caller to remove). */
async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ludotheca-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return { context, profile };
}

module.exports = { launch, CHROMIUM };
