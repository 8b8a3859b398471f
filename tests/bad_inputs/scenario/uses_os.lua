-- no os in the sandbox
os.execute("touch /tmp/roofline_pwned")
