// Preloaded (`node --import ./bench/peak-rss.mjs`) into a command the bench measures: its peak
// resident memory, worker threads included, as the last line on stderr when it exits.
process.on('exit', () => process.stderr.write(`peak-rss-kib ${process.resourceUsage().maxRSS}\n`));
