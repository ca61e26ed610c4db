# Pipelines for busybox sh (tests/serial/pipes-busybox*.txt): every command an applet of the
# busybox running the script, each stage a forked child exec'ing it.
echo one two three four | tr ' ' '\n' | sort -r
seq 1 20000 | tail -n 1 | wc -c
cat /proc/self/maps | grep -c stack
yes | head -n 3
false | true; echo "false | true: $?"
true | false; echo "true | false: $?"
sleep 1 & wait; echo "sleep 1 & wait: $?"
