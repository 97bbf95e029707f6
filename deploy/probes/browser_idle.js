// Resolves once the page's main thread has been idle (requestIdleCallback with 40 ms or
// more to spare) three times in a row: the browser has finished drawing what it got.
async () => {
  let quiet = 0;
  while (quiet < 3) {
    const spare = await new Promise(done =>
      requestIdleCallback(deadline => done(deadline.timeRemaining()), {timeout: 1000}));
    quiet = spare >= 40 ? quiet + 1 : 0;
  }
  return true;
}
