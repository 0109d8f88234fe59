// SPDX-License-Identifier: GPL-2.0-or-later
/* The full-screen monitor: terminal setup and restore, the wait for keys or
 * the next refresh, and the key map. Drawing is in tui_draw.c, the help
 * screen and sort menu in tui_help.c, line input in tui_prompt.c. */
#include "tui_priv.h"
#include "xgtop/outputs/output.h"
#include "xgtop/tui/tui.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* A signal handler can reach only file-scope state: which terminating
 * signal came, whether the window changed size, and the write end of the
 * self-pipe that wakes poll() whichever thread took the signal. */
static volatile sig_atomic_t tui_sig_quit;
static volatile sig_atomic_t tui_sig_winch;
static int tui_sig_wfd = -1;

static void tui_on_signal(int sig)
{
	int saved = errno;
	if (sig == SIGWINCH)
		tui_sig_winch = 1;
	else
		tui_sig_quit = sig;
	if (tui_sig_wfd >= 0) {
		ssize_t r = write(tui_sig_wfd, "s", 1);
		(void)r;  /* a full pipe already holds a wake-up */
	}
	errno = saved;
}

static const int tui_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };

/* Safety net for exit() paths that never return to tui_run (an allocation
 * failure, say): the shell must not be left in raw mode. */
static void tui_atexit(void)
{
	if (!isendwin())
		endwin();
}

void tui_set_msg(struct tui *t, bool is_err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->msg_err = is_err;
}

static void tui_resize(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

int tui_key(struct tui *t, int timeout_ms, wint_t *wch)
{
	uint64_t end = timeout_ms >= 0 ? xg_now_mono_ns() + (uint64_t)timeout_ms * 1000000ull : 0;
	int idle_reads = 0;

	for (;;) {
		if (tui_sig_quit)
			return TUI_KEY_QUIT;
		if (tui_sig_winch) {
			tui_sig_winch = 0;
			tui_resize();
			*wch = KEY_RESIZE;
			return KEY_CODE_YES;
		}
		int rc = get_wch(wch);
		if (rc == KEY_CODE_YES) {
			/* Some terminfo entries name \e[1~ and \e[4~ Find and
			 * Select; every terminal that sends them means Home/End. */
			if (*wch == KEY_FIND)
				*wch = KEY_HOME;
			else if (*wch == KEY_SELECT)
				*wch = KEY_END;
		}
		if (rc != ERR)
			return rc;
		int ms = -1;
		if (timeout_ms >= 0) {
			uint64_t now = xg_now_mono_ns();
			if (now >= end)
				return TUI_KEY_TIMEOUT;
			ms = (int)((end - now + 999999ull) / 1000000ull);
		}
		struct pollfd p[2] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = t->sig_fd, .events = POLLIN },
		};
		int n = poll(p, 2, ms);
		if (n < 0 && errno != EINTR) {
			tui_set_msg(t, true, "waiting for keys: %s", strerror(errno));
			t->fatal = true;
			return TUI_KEY_QUIT;
		}
		if (n > 0 && p[1].revents) {
			char drain[64];
			while (read(t->sig_fd, drain, sizeof(drain)) > 0)
				;
		}
		/* A closed terminal reads as endless "ready, nothing there". */
		if (n > 0 && p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return TUI_KEY_QUIT;
		if (n > 0 && p[0].revents & POLLIN) {
			if (++idle_reads > 100)
				return TUI_KEY_QUIT;
		} else {
			idle_reads = 0;
		}
	}
}

/* Takes one sample and schedules the next. */
static int tui_step(struct tui *t, uint64_t *last_step, struct xg_err *err)
{
	uint64_t t0 = xg_now_mono_ns();
	int rc = engine_step(t->e, err);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		t->eof = true;
		if (t->e->end_notice[0])
			tui_set_msg(t, false, "%s", t->e->end_notice);
		return 0;
	}
	*last_step = t0;
	t->next_due = t0 + engine_wait_ns(t->e);
	return 0;
}

/* Delays + and - step through; "nice" values rather than doubling. */
static const double delay_ladder[] = { 0.1, 0.2, 0.5, 1, 1.5, 2, 3, 5, 10, 15, 30, 60, 120, 300 };

static double delay_next(double d, int dir)
{
	size_t n = XG_ARRAY_LEN(delay_ladder);
	if (dir > 0) {
		for (size_t i = 0; i < n; i++)
			if (delay_ladder[i] > d + 1e-9)
				return delay_ladder[i];
		return d;
	}
	for (size_t i = n; i-- > 0;)
		if (delay_ladder[i] < d - 1e-9)
			return delay_ladder[i];
	return d;
}

static void tui_set_delay(struct tui *t, double d, uint64_t last_step)
{
	t->e->view.delay_s = d;
	t->next_due = last_step + engine_wait_ns(t->e);
	if (t->replay)
		tui_set_msg(t, false, "delay %gs (a replay follows the recorded pace and --speed)", d);
	else
		tui_set_msg(t, false, "delay %gs", d);
}

static void tui_write_report(struct tui *t)
{
	char name[96], stamp[48];
	time_t now = time(NULL);
	struct tm tm;
	int fd = -1;

	if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)now);
	int oerr = 0;
	for (int i = 1; i < 100 && fd < 0; i++) {
		if (i == 1)
			snprintf(name, sizeof(name), "xgtop-report-%s.txt", stamp);
		else
			snprintf(name, sizeof(name), "xgtop-report-%s-%d.txt", stamp, i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		oerr = errno;
		if (fd < 0 && oerr != EEXIST)
			break;
	}
	if (fd < 0) {
		tui_set_msg(t, true, "cannot write %s: %s", name, strerror(oerr));
		return;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		tui_set_msg(t, true, "cannot write %s: %s", name, strerror(errno));
		close(fd);
		return;
	}
	int rc = output_write_report(f, &t->e->table, &t->e->view);
	int werr = ferror(f) ? errno : 0;
	if (fclose(f) != 0 && !werr)
		werr = errno ? errno : EIO;
	if (rc < 0 || werr)
		tui_set_msg(t, true, "cannot write %s: %s", name, strerror(werr ? werr : EIO));
	else
		tui_set_msg(t, false, "report written to %s", name);
}

/* After a toggle hid the sort column, sort by CPU% rather than by
 * something the user cannot see. */
static void tui_fix_sort(struct tui *t)
{
	struct xg_view *v = &t->e->view;
	if (!view_col_visible(v, v->sort_col) && v->sort_col != XG_COL_NAME) {
		v->sort_col = XG_COL_CPU_PCT;
		v->reverse = false;
	}
}

static void tui_toggle(struct tui *t, bool *flag, const char *what)
{
	*flag = !*flag;
	tui_fix_sort(t);
	engine_reapply(t->e);
	tui_set_msg(t, false, "%s %s", what, *flag ? "on" : "off");
}

static void tui_filter(struct tui *t)
{
	struct xg_view *v = &t->e->view;
	char buf[sizeof(v->filter_text)];
	struct xg_err ferr = { 0 };

	snprintf(buf, sizeof(buf), "%s", v->has_filter ? v->filter_text : "");
	int rc = tui_prompt(t, "Filter names (regex, empty clears): ", buf, sizeof(buf));
	if (rc == TUI_KEY_QUIT) {
		t->quit = true;
		return;
	}
	if (rc == 0) {
		tui_set_msg(t, false, "filter unchanged");
		return;
	}
	if (view_set_filter(v, buf, &ferr) < 0) {
		tui_set_msg(t, true, "bad filter: %s", ferr.msg);
		return;
	}
	engine_reapply(t->e);
	t->top = 0;
	t->name_sticky = 0;
	if (buf[0])
		tui_set_msg(t, false, "filter /%s/: %zu rows", buf, v->norder);
	else
		tui_set_msg(t, false, "filter cleared");
}

static void tui_ask_delay(struct tui *t, uint64_t last_step)
{
	char buf[32];
	double d;
	snprintf(buf, sizeof(buf), "%g", t->e->view.delay_s);
	int rc = tui_prompt(t, "Delay in seconds: ", buf, sizeof(buf));
	if (rc == TUI_KEY_QUIT) {
		t->quit = true;
		return;
	}
	if (rc == 0)
		return;
	if (!xg_parse_double(buf, &d) || d < 0.1 || d > 86400)
		tui_set_msg(t, true, "bad delay '%s': give seconds from 0.1 to 86400, e.g. 0.5", buf);
	else
		tui_set_delay(t, d, last_step);
}

static void tui_scroll(struct tui *t, long delta)
{
	size_t n = t->e->view.norder, h = t->list_h > 0 ? (size_t)t->list_h : 1;
	size_t maxtop = n > h ? n - h : 0;
	if (delta < 0 && (size_t)-delta > t->top)
		t->top = 0;
	else if (delta < 0)
		t->top -= (size_t)-delta;
	else
		t->top = t->top + (size_t)delta > maxtop ? maxtop : t->top + (size_t)delta;
}

static void tui_mouse(struct tui *t)
{
	MEVENT ev;
	if (getmouse(&ev) != OK || ev.y != t->header_y)
		return;
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return;
	int c = tui_col_at(t, ev.x);
	if (c < 0)
		return;
	struct xg_view *v = &t->e->view;
	if ((enum xg_col)c == v->sort_col) {
		v->reverse = !v->reverse;
	} else {
		v->sort_col = (enum xg_col)c;
		v->reverse = false;
	}
	engine_reapply(t->e);
}

/* Returns -1 on a fatal engine error (err set). */
static int tui_handle(struct tui *t, int rc, wint_t ch, uint64_t *last_step, struct xg_err *err)
{
	struct xg_view *v = &t->e->view;
	int k = rc == KEY_CODE_YES ? (int)ch : ch < 0x80 ? (int)ch : -1;

	if (rc == KEY_CODE_YES) {
		switch (k) {
		case KEY_RESIZE:
			t->name_sticky = 0;
			clearok(curscr, TRUE);
			return 0;
		case KEY_F(6):
			k = 'o';
			break;
		case KEY_RIGHT:
			k = '.';
			break;
		case KEY_UP: tui_scroll(t, -1); return 0;
		case KEY_DOWN: tui_scroll(t, 1); return 0;
		case KEY_PPAGE: tui_scroll(t, -(long)(t->list_h > 1 ? t->list_h - 1 : 1)); return 0;
		case KEY_NPAGE: tui_scroll(t, t->list_h > 1 ? t->list_h - 1 : 1); return 0;
		case KEY_HOME: t->top = 0; return 0;
		case KEY_END: tui_scroll(t, (long)v->norder); return 0;
		case KEY_MOUSE: tui_mouse(t); return 0;
		default:
			return 0;
		}
	}
	switch (k) {
	case 'q': case 'Q':
		t->quit = true;
		break;
	case '<': case '>':
		view_sort_step(v, k == '<' ? -1 : 1);
		engine_reapply(t->e);
		break;
	case 'o':
		if (tui_sort_menu(t) == TUI_KEY_QUIT)
			t->quit = true;
		break;
	case 'r':
		v->reverse = !v->reverse;
		engine_reapply(t->e);
		break;
	case '/':
		tui_filter(t);
		break;
	case 'd': tui_toggle(t, &v->show_disk, "disk columns"); break;
	case 'n': tui_toggle(t, &v->show_net, "network columns"); break;
	case 'c': tui_toggle(t, &v->show_cache, "cache columns"); break;
	case 'm':
		v->sumcache = !v->sumcache;
		tui_fix_sort(t);
		engine_reapply(t->e);
		tui_set_msg(t, false, "cache counters %s%s", v->sumcache ? "summed" : "by where they happened",
			    v->show_cache ? "" : " (c shows the cache columns)");
		break;
	case 'w': tui_toggle(t, &v->show_sched, "scheduler columns"); break;
	case 'v':
		tui_toggle(t, &v->show_vcpus, "vCPU rows");
		t->name_sticky = 0;
		break;
	case ' ':
		v->frozen = !v->frozen;
		if (!v->frozen && !t->eof && !t->replay)
			/* Live data: catch up now instead of showing a stale frame. */
			t->next_due = xg_now_mono_ns();
		break;
	case '.':
		if (t->eof) {
			tui_set_msg(t, false, "end of recording: nothing more to step");
		} else if (v->frozen || t->replay) {
			if (tui_step(t, last_step, err) < 0)
				return -1;
		} else {
			tui_set_msg(t, false, "'.' steps while frozen (space) or in a replay");
		}
		break;
	case '+': case '-': {
		double d = delay_next(v->delay_s, k == '+' ? 1 : -1);
		tui_set_delay(t, d, *last_step);
		break;
	}
	case 's':
		tui_ask_delay(t, *last_step);
		break;
	case 'W':
		tui_write_report(t);
		break;
	case 'h': case '?':
		if (tui_help(t) == TUI_KEY_QUIT)
			t->quit = true;
		break;
	case 12: /* ^L */
		clearok(curscr, TRUE);
		break;
	default:
		tui_set_msg(t, false, "unknown key (h shows the keys)");
		break;
	}
	return 0;
}

static bool no_color(void)
{
	const char *s = getenv("NO_COLOR");
	return s && *s;
}

static int tui_loop(struct tui *t, struct xg_err *err)
{
	uint64_t last_step = xg_now_mono_ns();

	if (tui_step(t, &last_step, err) < 0)
		return 1;
	while (!t->quit) {
		tui_draw(t);
		int timeout = -1;
		if (!t->eof && !t->e->view.frozen) {
			uint64_t now = xg_now_mono_ns();
			timeout = now >= t->next_due ? 0 : (int)((t->next_due - now + 999999ull) / 1000000ull);
		}
		wint_t ch = 0;
		int rc = tui_key(t, timeout, &ch);
		if (rc == TUI_KEY_QUIT)
			break;
		if (rc != TUI_KEY_TIMEOUT) {
			t->msg[0] = 0;
			if (tui_handle(t, rc, ch, &last_step, err) < 0)
				return 1;
		}
		/* Due even while keys keep coming: a held key must not stop
		 * the refresh. */
		if (!t->quit && !t->eof && !t->e->view.frozen && xg_now_mono_ns() >= t->next_due &&
		    tui_step(t, &last_step, err) < 0)
			return 1;
	}
	return 0;
}

int tui_run(struct xg_engine *e, struct xg_err *err)
{
	struct tui t = { .e = e, .sig_fd = -1 };
	struct sigaction sa, old[XG_ARRAY_LEN(tui_signals)];
	int pfd[2];
	char *old_ctype;
	int rc;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		xg_fail(err, "the monitor needs a terminal on stdin and stdout (use -b for batch output)");
		return 1;
	}
	if (pipe2(pfd, O_CLOEXEC | O_NONBLOCK) < 0) {
		xg_fail_errno(err, errno, "cannot create the signal pipe");
		return 1;
	}

	t.sig_fd = pfd[0];
	tui_sig_wfd = pfd[1];
	tui_sig_quit = 0;
	tui_sig_winch = 0;
	/* Ours before ncurses starts, so it installs none of its own: a
	 * signal then ends the loop and takes the same restore path as q. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < XG_ARRAY_LEN(tui_signals); i++)
		sigaction(tui_signals[i], &sa, &old[i]);

	/* Only the character type: numbers must keep their '.' decimal
	 * point in reports and the delay prompt. */
	old_ctype = xg_strdup(setlocale(LC_CTYPE, NULL));
	setlocale(LC_CTYPE, "");
	t.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	t.replay = (e->cfg && e->cfg->replay) || (e->ops && e->ops->name && !strcmp(e->ops->name, "replay"));

	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *term = getenv("TERM");
		if (!term || !*term)
			xg_fail(err, "cannot start the full-screen view: TERM is not set (try TERM=xterm, or -b for batch output)");
		else
			xg_fail(err, "cannot start the full-screen view: no terminfo entry for TERM=%s (try TERM=xterm, or -b for batch output)",
				term);
		rc = 1;
		goto restore;
	}
	/* Registered again on a second run: harmless, endwin is guarded. */
	atexit(tui_atexit);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/* Home/End as tmux, screen, rxvt and the Linux console send them,
	 * and as xterm sends them outside keypad mode: absent from many
	 * terminfo entries (xterm-256color has only \eOH / \eOF). */
	static const char *const home_end[][2] = {
		{ "\033[1~", "\033[4~" }, { "\033[7~", "\033[8~" }, { "\033[H", "\033[F" },
		{ "\033OH", "\033OF" },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(home_end); i++) {
		if (!key_defined(home_end[i][0]))
			define_key(home_end[i][0], KEY_HOME);
		if (!key_defined(home_end[i][1]))
			define_key(home_end[i][1], KEY_END);
	}
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	if (!no_color() && has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_RED, -1);
		t.color = true;
	}

	rc = tui_loop(&t, err);

	endwin();
	delscreen(scr);
restore:
	setlocale(LC_CTYPE, old_ctype);
	free(old_ctype);
	for (size_t i = 0; i < XG_ARRAY_LEN(tui_signals); i++)
		sigaction(tui_signals[i], &old[i], NULL);
	tui_sig_wfd = -1;
	close(pfd[0]);
	close(pfd[1]);
	if (!rc && t.fatal) {
		/* The loop gave up on the terminal (poll failed): say why. */
		xg_fail(err, "%s", t.msg);
		rc = 1;
	}
	return rc;
}
