/**
 * CJK and time-scoped episodes for the recall eval.
 *
 * @module
 */
import type { Turn } from "./_coding.ts";

/** A CJK episode: a session in Chinese or Japanese and queries in kind. */
export interface CjkEpisode {
  key: string;
  project: string;
  turns: Turn[];
  queries: string[];
}

/** CJK episodes (Chinese first, then Japanese). */
export const CJK: CjkEpisode[] = [
  {
    key: "zh-pool",
    project: "api",
    turns: [
      { u: "数据库连接池耗尽了，订单接口一直超时，帮我看看" },
      { a: "连接池默认大小只有10，高峰期请求排队，等待超过了接口的超时时间。" },
      {
        a: "我们把连接池大小从10调到50，并且给获取连接加了5秒超时。压测下接口恢复正常。",
      },
    ],
    queries: ["连接池大小调到多少", "数据库连接池耗尽"],
  },
  {
    key: "zh-logrotate",
    project: "infra",
    turns: [
      { u: "服务器磁盘满了，日志文件有200G" },
      { a: "应用日志从来没有轮转过，一直写同一个文件。" },
      {
        a: "配置了logrotate每天轮转一次，压缩旧文件，只保留7天。磁盘占用降到了15G。",
      },
    ],
    queries: ["日志轮转保留几天", "磁盘满了日志"],
  },
  {
    key: "zh-bloom",
    project: "search",
    turns: [
      { u: "有人用不存在的商品编号刷接口，缓存穿透，数据库压力很大" },
      { a: "不存在的键每次都打到数据库，因为缓存里没有它们。" },
      {
        a: "加了布隆过滤器，先判断商品编号是否可能存在，同时把空结果缓存60秒。数据库查询量下降了九成。",
      },
    ],
    queries: ["怎么解决缓存穿透", "布隆过滤器"],
  },
  {
    key: "zh-rollback",
    project: "billing",
    turns: [
      { u: "刚上线的版本支付回调报错，用户付款后订单状态没有更新" },
      { a: "新版本改了回调的签名校验，和支付网关的格式不一致。" },
      { a: "先回滚到上一个版本止血，再修复签名校验，补发了失败的回调。" },
    ],
    queries: ["支付回调报错回滚", "订单状态没有更新"],
  },
  {
    key: "zh-coverage",
    project: "web",
    turns: [
      { u: "前端单元测试覆盖率只有40%，怎么提高" },
      { a: "大部分没有覆盖的是表单校验和工具函数，这些最容易补测试。" },
      {
        a: "我们定了目标：每个迭代提高5%，三个月内达到80%，并在CI里加了覆盖率门槛。",
      },
    ],
    queries: ["测试覆盖率目标", "覆盖率门槛"],
  },
  {
    key: "zh-idempotent",
    project: "worker",
    turns: [
      { u: "消息队列重复消费，同一个用户收到两次优惠券" },
      { a: "消费者处理完之后提交位移之前重启，消息会被重新投递。" },
      { a: "给每条消息加了幂等键，处理前先在Redis里检查，重复的直接跳过。" },
    ],
    queries: ["重复消费怎么处理", "幂等键"],
  },
  {
    key: "zh-timer-leak",
    project: "worker",
    turns: [
      { u: "Node服务内存一直涨，每天要重启" },
      { a: "每个连接都注册了一个定时器，连接断开后定时器没有清理。" },
      { a: "在连接关闭时调用clearInterval，内存稳定在300M左右。" },
    ],
    queries: ["内存泄漏的原因", "定时器没有清理"],
  },
  {
    key: "zh-cors",
    project: "web",
    turns: [
      { u: "前端请求接口跨域失败，浏览器报错" },
      { a: "后端没有返回跨域需要的响应头，预检请求直接失败。" },
      { a: "在网关统一加了CORS响应头，允许前端域名访问。" },
    ],
    queries: ["跨域失败", "前端跨域响应头"],
  },
  {
    key: "ja-migration",
    project: "api",
    turns: [
      { u: "本番環境でデータベースのマイグレーションが失敗しました" },
      { a: "テーブルのロック待ちでタイムアウトしています。" },
      {
        a: "ロックタイムアウトを延ばして、アクセスの少ない深夜に再実行しました。",
      },
    ],
    queries: ["マイグレーション失敗", "ロックタイムアウト"],
  },
  {
    key: "ja-flaky",
    project: "web",
    turns: [
      { u: "テストがときどき失敗します。不安定なテストを直したい" },
      { a: "実際のタイマーを待っているので、遅いマシンでは間に合いません。" },
      { a: "タイマーをモックして時間を進めるように変更し、安定しました。" },
    ],
    queries: ["不安定なテスト", "タイマーをモック"],
  },
];

/** Chinese distractor chats sharing vocabulary with the episodes. */
export const CJK_DISTRACTORS: Turn[][] = [
  [
    { u: "订单接口的响应时间太长了，能优化一下吗" },
    {
      a: "主要时间花在数据库查询上，加了索引之后响应时间从800毫秒降到了90毫秒。",
    },
  ],
  [
    { u: "日志里有很多超时错误" },
    { a: "这些超时来自第三方接口，我们加了重试和熔断。" },
  ],
  [
    { u: "缓存的过期时间应该设多久" },
    { a: "热门数据设置10分钟，冷数据1小时，并加随机抖动避免同时过期。" },
  ],
  [
    { u: "支付网关升级了新版本，需要改什么" },
    { a: "新版本的接口地址变了，签名算法没有变化，只需要更新配置。" },
  ],
  [
    { u: "前端表单校验怎么写测试" },
    { a: "可以用测试库模拟用户输入，然后检查错误提示。" },
  ],
  [
    { u: "消息队列的消费者太慢了" },
    { a: "把消费者数量从2个增加到8个，并且批量处理消息。" },
  ],
  [
    { u: "服务器内存不够，要不要加机器" },
    { a: "先看看内存占用，Redis占了大部分，可以清理过期的键。" },
  ],
  [
    { u: "浏览器控制台有很多报错" },
    { a: "大部分是第三方脚本的报错，不影响功能。" },
  ],
  [
    { u: "データベースのバックアップはどうしていますか" },
    { a: "毎日深夜に自動でバックアップを取り、30日間保存しています。" },
  ],
  [
    { u: "テストの実行時間が長すぎます" },
    { a: "テストを並列で実行するように設定しました。" },
  ],
];

/** A time pair: the same topic in two sessions at different times. */
export interface TimeEpisode {
  key: string;
  project: string;
  /** Days before the bench's clock for each session. */
  ages: [number, number];
  /** The two sessions' turns. */
  turns: [Turn[], Turn[]];
  /** Queries and which of the two (0 or 1) each targets. */
  queries: Array<[string, 0 | 1]>;
}

/**
 * Time pairs. The bench clock is Monday 2026-11-30 12:00 UTC, so "last week"
 * is Nov 23–29 and "in may" is May 2026.
 */
export const TIME: TimeEpisode[] = [
  {
    key: "node-upgrade",
    project: "api",
    ages: [5, 195],
    turns: [
      [
        { u: "let's upgrade node for the api service" },
        {
          a: "We upgraded the api service to Node 22 LTS; the only change needed was replacing the deprecated punycode import.",
        },
      ],
      [
        { u: "time to upgrade node on the api service" },
        {
          a: "We upgraded the api service to Node 20; the test suite passed after bumping the jest version.",
        },
      ],
    ],
    queries: [
      ["what node version did we upgrade the api to last week", 0],
      ["node upgrade for the api in may", 1],
    ],
  },
  {
    key: "backup-script",
    project: "infra",
    ages: [1, 260],
    turns: [
      [
        { u: "the database backup script failed overnight" },
        {
          a: "The backup script failed because the disk was full; we moved backups to object storage and the script ran cleanly.",
        },
      ],
      [
        { u: "the database backup script is too slow" },
        {
          a: "The backup script now runs pg_dump with parallel jobs, which cut it from two hours to forty minutes.",
        },
      ],
    ],
    queries: [
      ["what happened with the backup script yesterday", 0],
      ["backup script changes in march", 1],
    ],
  },
  {
    key: "pricing-copy",
    project: "web",
    ages: [6, 70],
    turns: [
      [
        { u: "update the pricing page copy for the new plans" },
        {
          a: "The pricing page now lists Starter, Team and Enterprise, with the annual discount shown as two months free.",
        },
      ],
      [
        { u: "rewrite the pricing page copy to be shorter" },
        {
          a: "The pricing page copy is shorter: each plan has three bullet points and the FAQ moved below the table.",
        },
      ],
    ],
    queries: [
      ["pricing page copy changes last week", 0],
      ["what did we change on the pricing page in september", 1],
    ],
  },
  {
    key: "oncall",
    project: "infra",
    ages: [16, 400],
    turns: [
      [
        { u: "can you summarize the on-call incidents for the handoff" },
        {
          a: "Two incidents this rotation: a queue backlog on Tuesday and an expired API key for the SMS provider.",
        },
      ],
      [
        { u: "summarize on-call incidents for the handoff please" },
        {
          a: "One incident this rotation: the payment provider had an outage for twenty minutes.",
        },
      ],
    ],
    queries: [
      ["on-call handoff incidents two weeks ago", 0],
      ["on-call handoff incidents in 2025", 1],
    ],
  },
  {
    key: "search-relevance",
    project: "search",
    ages: [3, 35],
    turns: [
      [
        { u: "search results for 'red shoes' show socks first" },
        {
          a: "We boosted the product title field over the description so exact title matches rank first.",
        },
      ],
      [
        { u: "search results rank old products too high" },
        {
          a: "We added a recency boost so products from the last year rank above discontinued ones.",
        },
      ],
    ],
    queries: [
      ["search ranking change in the past few days", 0],
      ["search ranking change last month", 1],
    ],
  },
  {
    key: "design-review",
    project: "mobile",
    ages: [2, 120],
    turns: [
      [
        { u: "notes from the onboarding design review" },
        {
          a: "The onboarding design review agreed to cut the signup flow to three screens and defer notifications permission.",
        },
      ],
      [
        { u: "notes from the onboarding design review" },
        {
          a: "The onboarding design review asked for a skip button and a progress indicator.",
        },
      ],
    ],
    queries: [
      ["onboarding design review recently", 0],
      ["onboarding design review in august", 1],
    ],
  },
];
