// Every test runs git with a fixed identity and defaults, whatever the machine's global config says.
const env = process.env;
env.GIT_AUTHOR_NAME ??= 'Memory Audit Test';
env.GIT_AUTHOR_EMAIL ??= 'test@memory-audit.invalid';
env.GIT_COMMITTER_NAME ??= 'Memory Audit Test';
env.GIT_COMMITTER_EMAIL ??= 'test@memory-audit.invalid';
env.GIT_CONFIG_NOSYSTEM = '1';
env.GIT_CONFIG_COUNT = '3';
env.GIT_CONFIG_KEY_0 = 'init.defaultBranch';
env.GIT_CONFIG_VALUE_0 = 'main';
env.GIT_CONFIG_KEY_1 = 'commit.gpgsign';
env.GIT_CONFIG_VALUE_1 = 'false';
env.GIT_CONFIG_KEY_2 = 'advice.detachedHead';
env.GIT_CONFIG_VALUE_2 = 'false';
delete env.GITHUB_TOKEN;
delete env.GH_TOKEN;
