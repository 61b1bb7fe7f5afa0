/**
 * What the browser shows when the web app was not built (a checkout without `npm run build`):
 * a page that says so, never a blank screen. The API still answers.
 */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rewardkit view</title></head>
<body style="font-family: sans-serif; margin: 2rem">
<h1>rewardkit view</h1>
<p>The web app is not built. Run <code>npm run build</code> in the rewardkit folder, then reload.</p>
<p>The JSON API answers meanwhile: <a href="api/runs">api/runs</a>.</p>
</body></html>`;
