// Runs in the page: starts the Godot web engine with the job's pack and
// arguments and reports what it prints. Reports are console.log lines made
// of TAG and a JSON array of [kind, text] events: "out" and "err" lines,
// "exit" with the exit code, "fail" with a reason.
(function () {
	'use strict';
	const TAG = '\u0002gdvar\u0002';
	const log = console.log.bind(console);
	let events = [];
	let lastSend = 0;
	let over = false;

	function send() {
		lastSend = performance.now();
		if (events.length > 0) {
			log(TAG + JSON.stringify(events));
			events = [];
		}
	}
	// The engine runs on this thread, so timers wait while a script is
	// busy: send from here, in batches.
	function report(kind, text) {
		events.push([kind, text]);
		if (kind !== 'out' || events.length >= 200 || performance.now() - lastSend > 25) {
			send();
		}
	}
	setInterval(send, 50);
	window.gdvarFlush = send;

	function fail(why) {
		if (!over) {
			over = true;
			report('fail', String(why));
			send();
		}
	}
	window.addEventListener('error', (e) => fail(e.error && e.error.stack ? e.error.stack : e.message));
	window.addEventListener('unhandledrejection', (e) => fail(e.reason && e.reason.stack ? e.reason.stack : e.reason));

	async function main() {
		const job = await (await fetch('/job.json')).json();
		const engine = new Engine({
			executable: 'index',
			args: job.args,
			canvasResizePolicy: 0,
			focusCanvas: false,
			persistentPaths: [],
			unloadAfterInit: false,
			onPrint: (...a) => report('out', a.join(' ')),
			onPrintError: (...a) => report('err', a.join(' ')),
			onExit: (code) => {
				if (!over) {
					over = true;
					report('exit', code);
					send();
				}
			},
		});
		await Promise.all([engine.init('/engine/index'), engine.preloadFile('/job/main.pck', 'main.pck')]);
		await engine.start();
	}
	main().catch((e) => fail(e instanceof WebAssembly.RuntimeError
		? 'engine aborted (did the script parse, and does it extend SceneTree?): ' + e.message
		: e && e.stack ? e.stack : e));
}());
