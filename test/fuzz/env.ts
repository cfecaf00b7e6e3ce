/**
 * Imported first by the fuzz test: rate limits are off in the test suite, so thousands of
 * requests from one address measure the code, not the limiter.
 */
process.env.RATE_LIMITS = "off";
