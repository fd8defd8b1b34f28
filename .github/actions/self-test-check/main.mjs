// Nothing to check yet: the action under test has not finished. The post step checks.
console.log(`Will check ${process.env['INPUT_STATE-FILE']} when the job ends.`);
