/* Who the shell is: `su`, `exit` and `id`. Only two users exist, as in a minimal Linux image. */
#include <kernel/cred.h>
#include <kernel/kernel.h>
#include <lib/string.h>
#include <kernel/shell.h>

static unsigned uid = UID_ROOT;

unsigned current_uid(void)
{
	return uid;
}

static const char *user_name(unsigned u)
{
	return u == UID_ROOT ? "root" : "nobody";
}

static int cmd_su(int argc, char **argv)
{
	const char *who = argc > 1 ? argv[1] : "root";

	if (argc > 2) {
		printk("su: too many arguments\n");
		return 1;
	}
	if (strcmp(who, "root") == 0) {
		if (uid != UID_ROOT) {
			printk("su: Authentication failure\n");
			return 1;
		}
		return 0;
	}
	if (strcmp(who, "nobody") != 0) {
		printk("su: user %s does not exist\n", who);
		return 1;
	}
	uid = UID_NOBODY;
	return 0;
}
SHELL_COMMAND(su, "su", "su [USER]            become USER (root, nobody); `exit` returns", cmd_su);

static int cmd_exit(int argc, char **argv)
{
	if (uid == UID_ROOT) {
		printk("exit: not in a su shell (use poweroff to stop)\n");
		return 1;
	}
	uid = UID_ROOT;
	return 0;
}
SHELL_COMMAND(exit, "exit", "exit                 leave the su shell", cmd_exit);

static int cmd_id(int argc, char **argv)
{
	printk("uid=%u(%s) gid=%u(%s)\n", uid, user_name(uid), uid, uid == UID_ROOT ? "root" : "nogroup");
	return 0;
}
SHELL_COMMAND(id, "id", "id                   print the current user", cmd_id);
