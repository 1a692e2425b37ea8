// Runs a GDScript in Godot 4.6, the official web export template, inside
// headless Chromium, and relays what it prints.
//
//   node run.mjs [--timeout SECONDS] [--with FILE]... [--main-pack PACK] SCRIPT.gd [-- ARGS...]
//
// The script extends SceneTree (or MainLoop), works in _initialize() and
// later frames (_process), and ends with quit(code). ARGS are its
// OS.get_cmdline_user_args(). Its print() lines go to stdout, engine errors
// and printerr() to stderr. The exit status is the script's quit code, 124
// when the time limit (default 120 s) is reached, 125 when the engine or
// the browser failed. Each --with FILE is put beside the script, as
// res://<its name>, for the script to preload. With --main-pack PACK the
// engine starts from PACK as it is instead (which must hold SCRIPT.gd, by
// its name, and what makes it the main loop); SCRIPT.gd names it.
//
// Environment: GDVAR_GODOT4WEB_ENGINE, the folder with index.wasm and
// index.js (default .cache/godot beside this file); GDVAR_CHROMIUM, the
// browser (default /usr/bin/chromium).
//
// Only loopback is used: the files are served from 127.0.0.1 on a free
// port, and the browser runs with networking features off, on a fresh
// profile that is removed afterwards.

import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack, project } from './pck.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const engineDir = process.env.GDVAR_GODOT4WEB_ENGINE || join(here, '.cache', 'godot');
const chromiumPath = process.env.GDVAR_CHROMIUM || '/usr/bin/chromium';
const TAG = '\u0002gdvar\u0002';
const STARTUP = [/^Godot Engine v\S+ - https:\/\/godotengine\.org$/, /^Build configuration: /];

function usage(why) {
	if (why) {
		process.stderr.write(`godot4web: ${why}\n`);
	}
	process.stderr.write('usage: node run.mjs [--timeout SECONDS] [--with FILE]... [--main-pack PACK] SCRIPT.gd [-- ARGS...]\n');
	process.exit(2);
}

function parse(argv) {
	const o = { timeout: 120, script: null, args: [], with: [], mainPack: null };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--') {
			o.args = argv.slice(i + 1);
			break;
		} else if (a === '--timeout') {
			o.timeout = Number(argv[++i]);
		} else if (a === '--with') {
			o.with.push(resolve(argv[++i] ?? ''));
		} else if (a === '--main-pack') {
			o.mainPack = resolve(argv[++i] ?? '');
		} else if (a.startsWith('-')) {
			usage(`unknown option ${a}`);
		} else if (o.script === null) {
			o.script = resolve(a);
		} else {
			usage('one script only');
		}
	}
	if (o.script === null || !(o.timeout > 0)) {
		usage();
	}
	return o;
}

function serve(routes) {
	const server = createServer((req, res) => {
		const path = new URL(req.url, 'http://127.0.0.1').pathname;
		const headers = {
			'Cache-Control': 'no-store',
			'Cross-Origin-Opener-Policy': 'same-origin',
			'Cross-Origin-Embedder-Policy': 'require-corp',
		};
		let body = routes.get(path);
		let type = 'application/octet-stream';
		if (body === undefined && /^\/engine\/[\w.-]+$/.test(path)) {
			const file = join(engineDir, basename(path));
			if (existsSync(file)) {
				body = readFileSync(file);
			}
		}
		if (body === undefined) {
			res.writeHead(404, headers);
			res.end();
			return;
		}
		if (path.endsWith('.html') || path === '/') {
			type = 'text/html; charset=utf-8';
		} else if (path.endsWith('.js')) {
			type = 'text/javascript; charset=utf-8';
		} else if (path.endsWith('.wasm')) {
			type = 'application/wasm';
		} else if (path.endsWith('.json')) {
			type = 'application/json';
		}
		res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': body.length });
		res.end(body);
	});
	return new Promise((ok, fail) => {
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => ok(server));
	});
}

async function main() {
	const o = parse(process.argv.slice(2));
	for (const f of [o.mainPack ?? o.script, ...o.with]) {
		if (!existsSync(f)) {
			usage(`no such file: ${f}`);
		}
	}
	if (!existsSync(join(engineDir, 'index.wasm'))) {
		process.stderr.write(`godot4web: no engine in ${engineDir}; run install.sh\n`);
		process.exit(125);
	}
	const { chromium } = await import('playwright-core');

	const name = /^[\w.-]+\.gd$/.test(basename(o.script)) ? basename(o.script) : 'main.gd';
	// --script is ignored by this template, but without it (or a main scene)
	// the engine refuses to start a project.
	const args = ['--main-pack', 'main.pck', '--headless', '--script', `res://${name}`];
	if (o.args.length > 0) {
		args.push('--', ...o.args);
	}
	const routes = new Map([
		['/', readFileSync(join(here, 'page.html'))],
		['/page.js', readFileSync(join(here, 'page.js'))],
		['/job.json', Buffer.from(JSON.stringify({ args }))],
		['/job/main.pck', o.mainPack ? readFileSync(o.mainPack) : pack([
			...project(name, readFileSync(o.script, 'utf8')),
			...o.with.map((f) => ({ path: basename(f), data: readFileSync(f) })),
		])],
	]);
	const server = await serve(routes);
	const profile = mkdtempSync(join(tmpdir(), 'gdvar-godot4web-'));

	let status = null;
	let finish;
	const finished = new Promise((r) => { finish = r; });
	const end = (code) => {
		if (status === null) {
			status = code;
			finish();
		}
	};
	let startup = true;
	const onEvents = (events) => {
		for (const [kind, text] of events) {
			if (kind === 'out') {
				if (startup && STARTUP.some((re) => re.test(text))) {
					continue;
				}
				startup = false;
				process.stdout.write(text + '\n');
			} else if (kind === 'err') {
				process.stderr.write(text + '\n');
			} else if (kind === 'exit') {
				end(Number(text));
			} else if (kind === 'fail') {
				process.stderr.write(`godot4web: ${text}\n`);
				end(125);
			}
		}
	};

	let browser = null;
	let page = null;
	let cdp = null;
	const timer = setTimeout(async () => {
		process.stderr.write(`godot4web: no quit() within ${o.timeout} s\n`);
		if (page !== null && cdp !== null) {
			// Stop the script so that the lines it printed last are sent.
			cdp.send('Runtime.terminateExecution').catch(() => {});
			await Promise.race([
				page.evaluate(() => window.gdvarFlush && window.gdvarFlush()).catch(() => {}),
				new Promise((r) => setTimeout(r, 2000)),
			]);
		}
		end(124);
	}, o.timeout * 1000);

	try {
		browser = await chromium.launchPersistentContext(profile, {
			executablePath: chromiumPath,
			headless: true,
			args: [
				'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
				'--disable-background-networking', '--disable-component-update', '--disable-sync',
				'--disable-background-timer-throttling', '--disable-renderer-backgrounding',
				'--disable-backgrounding-occluded-windows',
			],
		});
		browser.on('close', () => {
			process.stderr.write('godot4web: the browser went away\n');
			end(125);
		});
		page = browser.pages()[0] ?? await browser.newPage();
		cdp = await browser.newCDPSession(page); // now: a busy page would not let it through later
		page.on('console', (msg) => {
			const text = msg.text();
			if (text.startsWith(TAG)) {
				onEvents(JSON.parse(text.slice(TAG.length)));
			}
		});
		page.on('pageerror', (e) => {
			process.stderr.write(`godot4web: page error: ${e && e.stack ? e.stack : e}\n`);
			end(125);
		});
		page.on('crash', () => {
			process.stderr.write('godot4web: the page crashed\n');
			end(125);
		});
		await page.goto(`http://127.0.0.1:${server.address().port}/`);
		await finished;
	} catch (e) {
		if (status === null) {
			process.stderr.write(`godot4web: ${e && e.stack ? e.stack : e}\n`);
			end(125);
		}
	}
	clearTimeout(timer);
	if (browser !== null) {
		browser.removeAllListeners('close');
		await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
	}
	server.close();
	rmSync(profile, { recursive: true, force: true });
	process.exitCode = status;
	setTimeout(() => process.exit(status), 100).unref();
}

main().catch((e) => {
	process.stderr.write(`godot4web: ${e && e.stack ? e.stack : e}\n`);
	process.exit(125);
});
